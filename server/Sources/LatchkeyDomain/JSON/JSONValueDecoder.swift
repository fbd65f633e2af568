import LatchkeyWire

/// Decodes the wire types from a body ``JSONParser`` already accepted, so the bytes are parsed once, by the parser
/// that refuses duplicate keys and deep nesting.
///
/// Types are read strictly (a number is never a string, nor a string a number): the wire types themselves say where
/// Firebase is lenient. Members are found as ``JSONValue``'s subscript finds them, under their snake_case or camelCase
/// name. A refusal is a standard `DecodingError` whose coding path names the field. Each instance decodes one value;
/// its coding path is only built when something asks for it, which is mostly an error.
package struct JSONValueDecoder: Decoder {
    package static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try Value(from: JSONValueDecoder(value: value, parentPath: [], key: nil))
    }

    let value: JSONValue
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?

    package var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(object: value, codingPath: codingPath))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([JSONValue].self) }
        return JSONValueUnkeyedContainer(items: items, codingPath: codingPath)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func bool() throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self) }
        return bool
    }

    func string() throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self) }
        return string
    }

    /// Plain JSON integer text that fits `Integer`: `6.0` and `1e2` are not integers here.
    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        guard case .number(let text) = value, let wide = Int64(jsonInteger: text), let integer = Integer(exactly: wide) else {
            throw mismatch(type)
        }
        return integer
    }

    func floatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ type: Number.Type) throws -> Number {
        guard case .number(let text) = value, let number = Number(text) else { throw mismatch(type) }
        return number
    }

    /// `valueNotFound` for null, as Foundation's decoder says it, so "missing" and "wrong type" stay apart.
    private func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type), found null."))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(type), found \(value.typeName)."))
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    package func decodeNil() -> Bool { value == .null }
    package func decode(_ type: Bool.Type) throws -> Bool { try bool() }
    package func decode(_ type: String.Type) throws -> String { try string() }
    package func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    package func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    package func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    package func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    package func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    package func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    package func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    package func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    package func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    package func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    package func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    package func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    package func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: self) }
}

private extension JSONValue {
    /// The JSON type's name, for decoding errors.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
