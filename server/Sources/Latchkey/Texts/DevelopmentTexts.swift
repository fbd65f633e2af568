import Foundation
import NIOPosix

/// The texts `FileTextGateway` wrote, read back for the development mailbox, newest first.
package struct DevelopmentTexts: Sendable {
    /// One text of the listing.
    package struct Entry: Sendable, Equatable {
        package let id: Int64
        package let to: String
        package let body: String
    }

    /// The newest texts listed; older ones stay on disk.
    static let listingLimit = 200
    /// A text is a few hundred bytes; a bigger file is no text.
    static let maximumFileSize = 64 * 1024

    let directory: URL

    package init(directory: String) {
        self.directory = URL(fileURLWithPath: directory)
    }

    package func entries() async throws -> [Entry] {
        let directory = directory
        return try await NIOThreadPool.singleton.runIfActive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let newest = names.filter { $0.hasSuffix(".json") && DevelopmentMailbox.isMessageID(String($0.dropLast(5))) }
                .sorted { ($0.count, $0) > ($1.count, $1) }.prefix(Self.listingLimit)
            return newest.compactMap { Self.read(directory.appendingPathComponent($0)) }
        }
    }

    /// Reads a regular file only (never through a symbolic link), of a sensible size.
    private static func read(_ file: URL) -> Entry? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int, size <= maximumFileSize,
            let data = FileManager.default.contents(atPath: file.path),
            let record = try? JSONDecoder().decode(FileTextGateway.Record.self, from: data)
        else { return nil }
        return Entry(id: record.id, to: record.to, body: record.body)
    }
}
