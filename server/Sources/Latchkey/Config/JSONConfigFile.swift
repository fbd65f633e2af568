import Configuration
import Foundation
import LatchkeyDomain

/// The configuration file as a swift-configuration provider, plus the keys it writes.
///
/// swift-configuration's own JSON reader refuses lists of objects, which the rate-limit windows are, so the file
/// is parsed with our strict parser and flattened here: objects into dotted keys, a list of objects into
/// numbered keys (`rateLimits.sendPerEmail.0.limit`), numbers into integers where they have no fraction.
struct JSONConfigFile {
    let provider: InMemoryProvider
    /// Every key the file writes, so that the ones Latchkey never reads can be refused.
    let keys: [ConfigFileKey]

    init(path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StartupError("cannot read the configuration file \(path): \(error.localizedDescription)")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw StartupError("\(path) is not valid JSON: \(Self.describe(error, in: data))")
        }
        guard case .object = document else { throw StartupError("\(path) must hold one JSON object") }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        var keys: [ConfigFileKey] = []
        try Self.flatten(document, at: [], into: &values, keys: &keys)
        provider = InMemoryProvider(name: path, values: values)
        self.keys = keys
    }

    /// The parser's message with the line and column of its byte offset: an operator edits lines, not bytes.
    private static func describe(_ error: JSONSyntaxError, in data: Data) -> String {
        // An unexpected end has no offset of its own: it is where the file stops.
        guard let offset = error.offset ?? (error == .unexpectedEnd ? data.count : nil) else { return error.message }
        let before = data.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return "line \(line), column \(column): \(error.message)"
    }

    private static func flatten(
        _ value: JSONValue, at path: [String], into values: inout [AbsoluteConfigKey: ConfigValue], keys: inout [ConfigFileKey]
    ) throws {
        let content: ConfigContent
        switch value {
        case .null:
            keys.append(ConfigFileKey(path: path, holdsValue: false))
            return
        case .object(let members):
            if members.isEmpty, !path.isEmpty { keys.append(ConfigFileKey(path: path, holdsValue: false)) }
            for (name, member) in members { try flatten(member, at: path + [name], into: &values, keys: &keys) }
            return
        case .bool(let flag): content = .bool(flag)
        case .string(let text): content = .string(text)
        case .number(let text): content = number(text)
        case .array(let items):
            if items.allSatisfy({ if case .object = $0 { true } else { false } }), !items.isEmpty {
                for (index, item) in items.enumerated() { try flatten(item, at: path + ["\(index)"], into: &values, keys: &keys) }
                return
            }
            content = try list(items, at: path)
        }
        values[AbsoluteConfigKey(path)] = ConfigValue(content, isSecret: false)
        keys.append(ConfigFileKey(path: path, holdsValue: true))
    }

    private static func number(_ text: String) -> ConfigContent {
        Int(text).map(ConfigContent.int) ?? .double(Double(text) ?? .nan)
    }

    private static func list(_ items: [JSONValue], at path: [String]) throws -> ConfigContent {
        var strings: [String] = []
        var integers: [Int] = []
        for item in items {
            switch item {
            case .string(let text): strings.append(text)
            case .number(let text) where Int(text) != nil: integers.append(Int(text) ?? 0)
            default: throw StartupError("\(path.joined(separator: ".")): a list must hold only strings, only integers or only objects")
            }
        }
        guard strings.isEmpty || integers.isEmpty else {
            throw StartupError("\(path.joined(separator: ".")): a list must hold only strings, only integers or only objects")
        }
        return integers.isEmpty ? .stringArray(strings) : .intArray(integers)
    }
}

/// One key written in the configuration file: the path of a value, or of a `null` or `{}`, which set nothing.
struct ConfigFileKey: Sendable, Equatable {
    let path: [String]
    let holdsValue: Bool

    var name: String { path.joined(separator: ".") }
}
