import Foundation
import NIOPosix

/// The messages `FileMailTransport` wrote, read back for the development mailbox.
///
/// A message is named by its file's number (`0000000042.eml` is `0000000042`); nothing else reaches the file
/// system, so a URL cannot name a path outside the directory.
package struct DevelopmentMailbox: Sendable {
    /// One message of the listing.
    package struct Entry: Sendable {
        package let id: String
        package let message: ReceivedMessage
    }

    /// The newest messages listed; older ones stay on disk.
    static let listingLimit = 200
    /// Bigger files are not read: sign-in emails are a few kilobytes.
    static let maximumFileSize = 1 << 20

    let directory: URL

    package init(directory: String) {
        self.directory = URL(fileURLWithPath: directory)
    }

    /// A message id: the digits of a file name the transport writes.
    package static func isMessageID(_ id: String) -> Bool {
        (1...20).contains(id.utf8.count) && id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The newest messages first.
    package func entries() async throws -> [Entry] {
        let directory = directory
        return try await NIOThreadPool.singleton.runIfActive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let ids = names.compactMap { name -> String? in
                guard name.hasSuffix(".eml") else { return nil }
                let id = String(name.dropLast(4))
                return Self.isMessageID(id) ? id : nil
            }
            // Zero-padded numbers: longer is newer, then the larger digits.
            let newest = ids.sorted { ($0.count, $0) > ($1.count, $1) }.prefix(Self.listingLimit)
            return newest.compactMap { id in Self.read(id, in: directory).map { Entry(id: id, message: $0) } }
        }
    }

    /// The message `id`, or `nil` when there is none (or `id` is not a message id).
    package func message(id: String) async throws -> ReceivedMessage? {
        guard Self.isMessageID(id) else { return nil }
        let directory = directory
        return try await NIOThreadPool.singleton.runIfActive { Self.read(id, in: directory) }
    }

    /// Reads a regular file only (never through a symbolic link), of a sensible size.
    private static func read(_ id: String, in directory: URL) -> ReceivedMessage? {
        let file = directory.appendingPathComponent(id + ".eml")
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int, size <= maximumFileSize,
            let data = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return MIMEReader.message(from: data)
    }
}
