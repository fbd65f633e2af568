import Configuration
import Foundation

/// The configuration file as a swift-configuration provider.
///
/// swift-configuration's own JSON reader refuses lists of objects, which the rate-limit windows are, so the file
/// is parsed with our strict parser and flattened here: objects into dotted keys, a list of objects into
/// numbered keys (`rateLimits.sendPerEmail.0.limit`), numbers into integers where they have no fraction.
enum JSONConfigFile {
    static func provider(path: String) throws -> InMemoryProvider {
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
            throw StartupError("\(path) is not valid JSON: \(error.message)")
        }
        guard case .object = document else { throw StartupError("\(path) must hold one JSON object") }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        try flatten(document, at: [], into: &values)
        return InMemoryProvider(name: path, values: values)
    }

    private static func flatten(_ value: JSONValue, at path: [String], into values: inout [AbsoluteConfigKey: ConfigValue]) throws {
        let content: ConfigContent
        switch value {
        case .null:
            return
        case .object(let members):
            for (name, member) in members { try flatten(member, at: path + [name], into: &values) }
            return
        case .bool(let flag): content = .bool(flag)
        case .string(let text): content = .string(text)
        case .number(let text): content = number(text)
        case .array(let items):
            if items.allSatisfy({ if case .object = $0 { true } else { false } }), !items.isEmpty {
                for (index, item) in items.enumerated() { try flatten(item, at: path + ["\(index)"], into: &values) }
                return
            }
            content = try list(items, at: path)
        }
        values[AbsoluteConfigKey(path)] = ConfigValue(content, isSecret: false)
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
