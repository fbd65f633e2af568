/// How sign-in links behave.
///
/// - `emailLink.codeLifetimeSeconds` (integer, default `600`, 1 to 86400): how long a link stays valid.
package struct EmailLinkConfiguration: Sendable {
    package var codeLifetimeSeconds: Int

    init(_ read: inout ConfigSectionReader) {
        codeLifetimeSeconds = read.int("emailLink.codeLifetimeSeconds", default: 600, in: 1...86_400)
    }
}
