import LatchkeyDomain

/// A parsed value written back as JSON (custom claims in ID tokens). A number goes out as an integer when it is one
/// that fits 64 bits, signed or not, else as a double (as JavaScript reads every number anyway).
extension JSONValue: Encodable {
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let text):
            if let integer = Int64(text) {
                try container.encode(integer)
            } else if let unsigned = UInt64(text) {
                try container.encode(unsigned)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}
