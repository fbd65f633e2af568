/// The members of a JSON object, found as ``JSONValue``'s subscript finds them (snake_case and camelCase alike).
struct JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONValue
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        guard case .object(let members) = object else { return [] }
        return members.keys.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).floatingPoint(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).floatingPoint(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).integer(type) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try Value(from: member(key)) }

    /// One lookup instead of the default's three (`contains`, `decodeNil`, `decode`): most request fields are optional.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentMember(key)?.string()
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentMember(key)?.bool()
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try presentMember(key).map { try Value(from: $0) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try member(SuperKey.super) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }

    private func member(_ key: some CodingKey) throws -> JSONValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No member \"\(key.stringValue)\"."))
        }
        return JSONValueDecoder(value: value, parentPath: codingPath, key: key)
    }

    /// The member, or nil when it is absent or null.
    private func presentMember(_ key: Key) -> JSONValueDecoder? {
        guard let value = object[key.stringValue], value != .null else { return nil }
        return JSONValueDecoder(value: value, parentPath: codingPath, key: key)
    }
}

/// The key of `superDecoder()`, as Foundation names it.
private enum SuperKey: String, CodingKey {
    case `super`
}
