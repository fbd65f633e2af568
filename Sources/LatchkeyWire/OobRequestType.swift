/// What an out-of-band code is for (Firebase's `requestType`), sent by name or by its enum number.
///
/// Only the kinds Latchkey serves are cases, so a body naming any other kind fails to decode.
public enum OobRequestType: String, Sendable, Codable, Equatable, CaseIterable {
    /// A sign-in link (`EMAIL_SIGNIN`, number 6).
    case emailSignIn = "EMAIL_SIGNIN"

    /// The number of the kind in Firebase's `OobReqType` enum.
    public var number: Int64 {
        switch self {
        case .emailSignIn: 6
        }
    }

    /// Reads the name, or the number as a JSON number or a decimal string, as Google's JSON mapping accepts enums.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.valueNotFound(Self.self, .init(codingPath: decoder.codingPath, debugDescription: "No request type."))
        }
        let number: Int64?
        if let name = try? container.decode(String.self) {
            if let type = Self(rawValue: name) {
                self = type
                return
            }
            number = Int64(jsonInteger: name)
        } else {
            number = try? container.decode(Int64.self)
        }
        guard let type = Self.allCases.first(where: { $0.number == number }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a request type this server serves.")
        }
        self = type
    }
}
