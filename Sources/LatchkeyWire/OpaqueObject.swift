/// A JSON object whose members Latchkey does not read: `totpEnrollmentInfo: {}`, `totpInfo: {}`, a phone factor's
/// information. Only its being an object is checked.
public struct OpaqueObject: Sendable, Codable, Equatable {
    public init() {}

    /// Refuses anything but an object, which the synthesized decoder of a struct without fields would not.
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}

/// A coding key of any name, for reading an object whose members do not matter.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
