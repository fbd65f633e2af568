import Foundation
import Latchkey
import Testing

/// `docs/configuration.md` is the configuration reference, and it cannot drift from the code: every key Latchkey
/// reads is documented there, and every key documented there is read.
///
/// The keys read are the configuration's own schema (`AppConfiguration.settingKeys(readingFile:)`, the keys
/// `check-config` holds a file to), asked of an empty file and then of a file with one item in each list of objects,
/// so that the fields of an item are asked for too. No list of keys is written here.
@Suite struct ConfigurationReferenceTests {
    static let reference = TestWorkspace.repositoryRoot.appendingPathComponent("docs/configuration.md")

    @Test func everyKeyTheCodeReadsIsDocumented() async throws {
        let documented = try Self.documentedKeys(String(contentsOf: Self.reference, encoding: .utf8))
        let read = try await Self.readKeys()
        let missing = read.subtracting(documented).sorted()
        #expect(missing.isEmpty, "read by Latchkey but missing from docs/configuration.md: \(missing)")
    }

    @Test func everyDocumentedKeyIsRead() async throws {
        let documented = try Self.documentedKeys(String(contentsOf: Self.reference, encoding: .utf8))
        let read = try await Self.readKeys()
        let unread = documented.subtracting(read).sorted()
        #expect(unread.isEmpty, "documented in docs/configuration.md but never read: \(unread)")
    }

    /// The reference's table knows the keys it names and nothing else: a row naming no key, or a key it lists twice,
    /// would pass the two checks above while documenting nothing more.
    @Test func theReferenceTableIsReadAsItIsWritten() {
        let table = """
            | key | type | default | meaning |
            |---|---|---|---|
            | `server.port` | integer | `8080` | Port; not `server.host`. |
            | `storage.postgres.host`, `.port` | string, integer | | Where. |
            | `apps.ios`, `apps.ios[].teamId` | list | | Apps. |
            | **`server.host`** | string | | Not a key cell: only backquoted names count. |
            """
        #expect(Self.documentedKeys(table) == ["server.port", "storage.postgres.host", "storage.postgres.port", "apps.ios", "apps.ios[].teamId"])
        #expect(Self.referenceName("rateLimits.sendPerEmail.0.windowSeconds") == "rateLimits.sendPerEmail[].windowSeconds")
        #expect(Self.referenceName("identityProviders.1.clientSecret.env") == "identityProviders[].clientSecret.env")
    }

    /// The keys named in the first cell of the reference's table rows: backquoted names separated by commas, where a
    /// name starting with a dot replaces the last part of the name before it (`storage.postgres.host`, `.port`).
    static func documentedKeys(_ text: String) -> Set<String> {
        var keys: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            guard let cell = line.dropFirst(2).split(separator: "|", maxSplits: 1).first else { continue }
            var previous: [Substring] = []
            for name in cell.split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces)
                guard name.count > 2, name.hasPrefix("`"), name.hasSuffix("`") else { continue }
                let key = name.dropFirst().dropLast()
                let parts = key.hasPrefix(".") ? previous.dropLast() + key.dropFirst().split(separator: ".") : key.split(separator: ".")
                keys.insert(parts.joined(separator: "."))
                previous = Array(parts)
            }
        }
        return keys
    }

    /// The keys Latchkey reads, named as the reference names them: an item of a list of objects as `list[]`.
    static func readKeys() async throws -> Set<String> {
        try await withTemporaryDirectory { directory in
            let empty = directory.appendingPathComponent("empty.json")
            try Data("{}".utf8).write(to: empty)
            let asked = try AppConfiguration.settingKeys(readingFile: empty.path)
            // Reading probes the first item of each list for its fields; a file with that item, every field set to 1,
            // makes reading ask for the fields' own parts too (`identityProviders.0.clientSecret.env`).
            var items: [String: [String: Any]] = [:]
            for key in asked {
                let parts = key.split(separator: ".").map(String.init)
                guard let index = parts.firstIndex(of: "0"), index > 0 else { continue }
                items[parts[..<index].joined(separator: "."), default: [:]][parts[(index + 1)...].joined(separator: ".")] = 1
            }
            var document: [String: Any] = [:]
            for (list, fields) in items {
                document.set([Dictionary<String, Any>.nested(fields)], at: list.split(separator: ".").map(String.init))
            }
            let full = directory.appendingPathComponent("items.json")
            try JSONSerialization.data(withJSONObject: document).write(to: full)
            return Set(asked.union(try AppConfiguration.settingKeys(readingFile: full.path)).map(referenceName))
        }
    }

    /// `apps.ios.0.teamId` as the reference names it, `apps.ios[].teamId`.
    static func referenceName(_ key: String) -> String {
        var name = ""
        for part in key.split(separator: ".") {
            if part.allSatisfy(\.isNumber) {
                name += "[]"
            } else {
                name += name.isEmpty ? String(part) : ".\(part)"
            }
        }
        return name
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `{"a.b": 1}` as `{"a": {"b": 1}}`.
    fileprivate static func nested(_ flat: [String: Any]) -> [String: Any] {
        var nested: [String: Any] = [:]
        for (key, value) in flat { nested.set(value, at: key.split(separator: ".").map(String.init)) }
        return nested
    }

    fileprivate mutating func set(_ value: Any, at path: [String]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            self[first] = value
            return
        }
        var child = self[first] as? [String: Any] ?? [:]
        child.set(value, at: Array(path.dropFirst()))
        self[first] = child
    }
}
