import Foundation
import LatchkeyDomain
import NIOPosix

/// The embedded default: writes each message as an `.eml` file, so a newcomer needs no SMTP server.
package struct FileMailTransport: MailTransport {
    let directory: URL

    /// Creates `directory` when missing; one that cannot be created or written in stops start-up, named by its key
    /// with the reason, rather than the first delivery failing later.
    package init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        let path = self.directory.path
        do {
            try FileManager.default.createPrivateDirectory(at: self.directory)
        } catch {
            throw StartupError("mail.file.directory: cannot create \(path): \(Self.reason(creating: self.directory))")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw StartupError("mail.file.directory: cannot write in \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Why `directory` cannot be made, in the system's words: the first of its ancestors that is not a directory, or
    /// the nearest existing one this user may not write in.
    private static func reason(creating directory: URL) -> String {
        var ancestor = directory.deletingLastPathComponent()
        while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) { ancestor = ancestor.deletingLastPathComponent() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "\(ancestor.path) is a file, not a directory"
        }
        guard access(ancestor.path, W_OK | X_OK) == 0 else { return "\(ancestor.path): \(String(cString: strerror(errno)))" }
        return "\(ancestor.path) cannot hold it"
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
