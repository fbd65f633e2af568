/// Firebase's answer to `mfaEnrollment:finalize`, `mfaEnrollment:withdraw` and `mfaSignIn:finalize`: new tokens and
/// nothing else, which the SDKs adopt at once.
public struct FinalizeMfaResponse: Sendable, Codable, Equatable {
    public var idToken: String
    public var refreshToken: String

    public init(idToken: String, refreshToken: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}
