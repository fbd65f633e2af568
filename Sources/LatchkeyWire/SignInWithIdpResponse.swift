/// Firebase's answer to `accounts:signInWithIdp`: the provider's view of the user, and a session unless the address
/// needs confirmation first or the request asked for the credential back (`errorMessage`).
///
/// Absent fields are omitted, never `null`; `needConfirmation` appears only when true, because the JS SDK treats its
/// mere presence as "account exists with a different credential".
public struct SignInWithIdpResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#VerifyAssertionResponse"
    public var providerId: String
    /// The provider's user id (`https://accounts.google.com/<sub>` for Google).
    public var federatedId: String
    /// The account; with `needConfirmation`, left out under enumeration protection (as `verifiedProvider` is).
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var fullName: String?
    public var firstName: String?
    public var lastName: String?
    public var photoUrl: String?
    public var screenName: String?
    /// The provider's claims, as a JSON string.
    public var rawUserInfo: String
    /// The provider's ID token (absent when the identity came from a `pendingToken`).
    public var oauthIdToken: String?
    /// The provider's access token and its lifetime in seconds, from a code exchange.
    public var oauthAccessToken: String?
    public var oauthExpireIn: Int?
    /// The provider's refresh token, when the request set `returnRefreshToken`.
    public var oauthRefreshToken: String?
    /// Only with `needConfirmation` and the "already in use" `errorMessage`: signs this identity in, or links it, once
    /// within an hour, given back to `signInWithIdp` instead of a credential.
    public var pendingToken: String?
    /// The `context` given to `createAuthUri`.
    public var context: String?
    public var isNewUser: Bool?
    public var needConfirmation: Bool?
    public var verifiedProvider: [String]?
    public var emailRecycled: Bool?
    /// `FEDERATED_USER_ID_ALREADY_LINKED` or `EMAIL_EXISTS`, for a request with `returnIdpCredential`.
    public var errorMessage: String?
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string.
    public var expiresIn: String?
    /// Instead of the tokens, when the account's second factor is asked for.
    public var mfaPendingCredential: String?
    public var mfaInfo: [MfaEnrollment]?

    public init(providerId: String, federatedId: String, emailVerified: Bool, rawUserInfo: String) {
        self.providerId = providerId
        self.federatedId = federatedId
        self.emailVerified = emailVerified
        self.rawUserInfo = rawUserInfo
    }
}
