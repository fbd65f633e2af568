/// Firebase's answer to `accounts:signInWithCustomToken`: a session for the token's uid, with no `localId` (the app's
/// backend chose it), as firebase-tools' emulator answers (`src/emulator/auth/operations.ts`, `signInWithCustomToken`).
public struct SignInWithCustomTokenResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#VerifyCustomTokenResponse"
    /// The session's tokens; absent when the account's second factor is asked for instead.
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String?
    /// Whether this sign-in created the account.
    public var isNewUser: Bool

    /// Present only when the account's second factor is asked for (the SDKs treat the key's mere presence so).
    public var mfaPendingCredential: String?
    /// The factors that can answer the challenge.
    public var mfaInfo: [MfaEnrollment]?

    public init(idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil, isNewUser: Bool) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.isNewUser = isNewUser
    }
}
