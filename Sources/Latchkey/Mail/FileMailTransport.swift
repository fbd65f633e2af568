import Foundation
import NIOPosix

/// The embedded default: writes each message as an `.eml` file, so a newcomer needs no SMTP server.
package struct FileMailTransport: MailTransport {
    let directory: URL

    package init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        try FileManager.default.createPrivateDirectory(at: self.directory)
    }

    /// Writes `NNNNNNNNNN.eml` named after the outbox row, atomically, so a reader never sees half a file
    /// and a second delivery of the same row overwrites rather than duplicates.
    package func deliver(_ message: [UInt8], to recipient: EmailAddress, id: Int64) async throws {
        let file = directory.appendingPathComponent(String(format: "%010lld.eml", id))
        try await NIOThreadPool.singleton.runIfActive {
            try writePrivateFile(Data(message), to: file)
        }
    }
}
