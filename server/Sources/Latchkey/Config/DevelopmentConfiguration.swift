/// What development mode (`mode: "development"`) serves besides the API; nothing here is served in production.
///
/// - `development.demoDirectory` (string, default `"examples/web"`): the web demo's files, served at `/demo/`.
///   When the directory is missing the demo is not served (start-up says so) and everything else works.
///
/// The development mailbox at `/__/dev/mailbox` reads `mail.file.directory`.
package struct DevelopmentConfiguration: Sendable {
    package var demoDirectory: String

    init(_ read: inout ConfigSectionReader) {
        demoDirectory = read.string("development.demoDirectory") ?? "examples/web"
    }
}
