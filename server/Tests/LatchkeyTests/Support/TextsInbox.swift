import Foundation
import Testing

/// The texts the development `file` gateway wrote in a workspace (`sms.file.directory`), as a phone receives them.
struct TextsInbox {
    let directory: URL

    /// The `index`-th text (from 0), waited for (bounded), which must have gone to `number`; its code is on its last line
    /// (`@host #123456`, the WebOTP line).
    func code(at index: Int, to number: String) async throws -> String {
        for _ in 0..<400 {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            if files.count > index {
                let data = try Data(contentsOf: directory.appendingPathComponent(files[index]))
                let text = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(text["to"] as? String == number)
                let body = try #require(text["body"] as? String)
                let last = try #require(body.split(separator: "\n").last)
                return String(try #require(last.split(separator: "#").last))
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("expected \(index + 1) texts in \(directory.path)")
        throw CancellationError()
    }
}
