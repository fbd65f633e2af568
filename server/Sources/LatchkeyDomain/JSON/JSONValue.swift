/// A parsed JSON document.
///
/// Numbers keep their source text so callers decide how to read them (int64 as string or number, etc.).
/// Objects are dictionaries because ``JSONParser`` rejects duplicate keys, so no member can be lost.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
