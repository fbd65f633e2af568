/// The items of a JSON array; a failed read leaves the index where it was, as Foundation's decoder does.
struct JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func decodeNil() throws -> Bool {
        let isNull = try next().decodeNil()
        if isNull { currentIndex += 1 }
        return isNull
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try advancing { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try advancing { try $0.string() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try advancing { try $0.floatingPoint(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try advancing { try $0.floatingPoint(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try advancing { try $0.integer(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try advancing { try $0.integer(type) } }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try advancing { try Value(from: $0) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try advancing { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try advancing { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try advancing { $0 } }

    /// Reads the current item and moves past it only if the read succeeded.
    private mutating func advancing<Value>(_ read: (JSONValueDecoder) throws -> Value) throws -> Value {
        let value = try read(try next())
        currentIndex += 1
        return value
    }

    private func next() throws -> JSONValueDecoder {
        let key = IndexKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [key], debugDescription: "The array has no more items."))
        }
        return JSONValueDecoder(value: items[currentIndex], parentPath: codingPath, key: key)
    }
}

/// A position in an array, as coding paths name it.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
