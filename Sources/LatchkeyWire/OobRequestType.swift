/// What an out-of-band code is for (Firebase's `requestType`), sent by name or by its enum number.
///
/// Only the kinds Latchkey serves are cases, so a body naming any other kind fails to decode.
public enum OobRequestType: String, Sendable, Codable, Equatable, CaseIterable {
    /// A password reset link (`PASSWORD_RESET`, number 1).
    case passwordReset = "PASSWORD_RESET"
    /// An address verification link (`VERIFY_EMAIL`, number 4).
    case verifyEmail = "VERIFY_EMAIL"
    /// The undo of an address change, mailed to the old address (`RECOVER_EMAIL`, number 5): answered by
    /// `accounts:resetPassword`, never asked for.
    case recoverEmail = "RECOVER_EMAIL"
    /// A sign-in link (`EMAIL_SIGNIN`, number 6).
    case emailSignIn = "EMAIL_SIGNIN"
    /// A link to the new address that moves the account there (`VERIFY_AND_CHANGE_EMAIL`, number 7).
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"

    /// The number of the kind in Firebase's `OobReqType` enum.
    public var number: Int64 {
        switch self {
        case .passwordReset: 1
        case .verifyEmail: 4
        case .recoverEmail: 5
        case .emailSignIn: 6
        case .verifyAndChangeEmail: 7
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
