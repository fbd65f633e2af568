/// How sign-in emails leave.
///
/// - `mail.from` (string, default `no-reply@` plus the public URL's host): the sender address.
/// - `mail.fromName` (string, default the app name): the sender's display name.
/// - `mail.transport` (`"file"`, default `"file"`): `file` writes each message as an `.eml` file.
/// - `mail.file.directory` (string, default `"data/outbox"`): where the `file` transport writes.
package struct MailConfiguration: Sendable {
    /// The ways a message can leave Latchkey.
    package enum Transport: String, Sendable, CaseIterable {
        case file
    }

    package var from: String
    package var fromName: String?
    package var transport: Transport
    package var fileDirectory: String

    init(_ read: inout ConfigSectionReader, publicHost: String) {
        from = read.string("mail.from") ?? "no-reply@\(publicHost)"
        fromName = read.string("mail.fromName")
        transport = read.choice("mail.transport", default: Transport.file)
        fileDirectory = read.string("mail.file.directory") ?? "data/outbox"
    }
}
