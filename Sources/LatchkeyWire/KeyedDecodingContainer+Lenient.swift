/// The ways a field is read more leniently than its type says, each an answer Latchkey has always given: Google's JSON
/// mapping takes an int64 as a number or a string, admin lookups take one string where a list is expected, and a flag
/// or hint of the wrong type is ignored rather than refused.
extension KeyedDecodingContainer {
    /// A flag, or nil for a value of any other type.
    func decodeLenientBool(forKey key: Key) -> Bool? {
        try? decodeIfPresent(Bool.self, forKey: key)
    }

    /// A string, or nil for a value of any other type, for fields that are hints rather than requirements.
    func decodeLenientString(forKey key: Key) -> String? {
        try? decodeIfPresent(String.self, forKey: key)
    }

    /// A list of strings, also given as one string (as admin lookups send `localId` and `email`); items that are
    /// not strings are dropped, and any other value is nil.
    func decodeLenientStrings(forKey key: Key) -> [String]? {
        if let string = try? decodeIfPresent(String.self, forKey: key) { return [string] }
        guard var items = try? nestedUnkeyedContainer(forKey: key) else { return nil }
        var strings: [String] = []
        while !items.isAtEnd {
            if let string = try? items.decode(String.self) {
                strings.append(string)
            } else if (try? items.decode(SkippedValue.self)) == nil {
                break
            }
        }
        return strings
    }

    /// An int64 written as a JSON number or as a decimal string, as Google's JSON mapping accepts both; nil for
    /// anything else, including fractions and exponents.
    func decodeLenientInt64(forKey key: Key) -> Int64? {
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return number }
        return (try? decodeIfPresent(String.self, forKey: key)).flatMap(Int64.init(jsonInteger:))
    }

    /// A string whose mere presence changes the request's meaning (an `idToken` instead of an admin's `localId`, an
    /// `email` that makes a sign-up a password sign-up): absent is nil, while null reads as the empty string, proto3's
    /// default, which the server then refuses as missing. A value of another type throws.
    func decodePresentString(forKey key: Key) throws -> String? {
        guard contains(key) else { return nil }
        return try decodeNil(forKey: key) ? "" : decode(String.self, forKey: key)
    }
}

/// Any JSON value, read and thrown away, so a list can step past an item of the wrong type.
private struct SkippedValue: Decodable {
    init(from decoder: any Decoder) {}
}

extension KeyedDecodingContainer {
    /// An int64 written as a JSON number or as a decimal string; absent or null is nil, anything else throws.
    public func decodeInt64IfPresent(forKey key: Key) throws -> Int64? {
        guard contains(key), !(try decodeNil(forKey: key)) else { return nil }
        if let number = try? decode(Int64.self, forKey: key) { return number }
        guard let number = Int64(jsonInteger: try decode(String.self, forKey: key)) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "Not an int64.")
        }
        return number
    }
}
