import Foundation
import LatchkeyDomain
import NIOPosix

/// `sms.gateway: "file"`, the development default: each text as a small JSON file (`{"id","to","body"}`) named after
/// its outbox row, which the development mailbox lists beside the mail; no SMS provider needed.
package struct FileTextGateway: TextGateway {
    /// What each file holds.
    struct Record: Codable {
        let id: Int64
        let to: String
        let body: String
    }

    let directory: URL

    /// Creates `directory` when missing; one that cannot be created or written in stops start-up, named by its key.
    package init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createPrivateDirectory(at: self.directory)
        } catch {
            throw StartupError("sms.file.directory: cannot create \(self.directory.path): \(error)")
        }
        guard access(self.directory.path, W_OK | X_OK) == 0 else {
            throw StartupError("sms.file.directory: cannot write in \(self.directory.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `NNNNNNNNNN.json` atomically: a reader never sees half a file, and a second delivery of the same row
    /// overwrites rather than duplicates.
    package func deliver(_ text: OutgoingText) async throws {
        let file = directory.appendingPathComponent(String(format: "%010lld.json", text.id))
        let data = try JSONEncoder().encode(Record(id: text.id, to: text.to.value, body: text.body))
        try await NIOThreadPool.singleton.runIfActive {
            try writePrivateFile(data, to: file)
        }
    }
}
