import LatchkeyDomain

/// A parsed value written back as JSON (custom claims in ID tokens and session cookies). A number goes out as an integer
/// when it is one that fits 64 bits, signed or not, else as a double (as JavaScript reads every number anyway).
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

/// A custom claim read back from a verified token, so a session cookie carries it on: a number as an integer when it is
/// one, else as the double it was written as.
extension JSONValue: Decodable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(UInt64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number("\(value)")
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([JSONValue].self) {
            self = .array(values)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
