/// Firebase's `SignInWithIdpRequest` (`accounts:signInWithIdp`, v3 `verifyAssertion`): sign in, sign up or link with
/// a credential from an identity provider.
public struct SignInWithIdpRequest: Sendable, Codable, Equatable {
    /// Where the provider sent the user back (its query and fragment carry the credential), or `http://localhost` for a
    /// credential the app obtained itself.
    public var requestUri: String?
    /// The credential, form-encoded: `providerId`, `id_token`, `access_token`, `nonce` (the raw nonce), `code`.
    public var postBody: String?
    /// The `sessionId` of `createAuthUri` that started this sign-in (or the id whose SHA-256 it was given).
    public var sessionId: String?
    /// A signed-in user's Firebase ID token: the provider's identity is linked to that account.
    public var idToken: String?
    /// A `pendingToken` from an earlier answer: signs the same identity in, or links it, once, without the provider.
    public var pendingToken: String?
    /// Answer `FEDERATED_USER_ID_ALREADY_LINKED` and `EMAIL_EXISTS` as a 200 with `errorMessage` and the credential.
    public var returnIdpCredential: Bool?
    public var returnSecureToken: Bool?
    /// Return the provider's refresh token (`oauthRefreshToken`) when the code exchange gave one.
    public var returnRefreshToken: Bool?
    /// False for re-authentication: an identity without an account is `USER_NOT_FOUND` instead of a new account.
    public var autoCreate: Bool?

    public init(
        requestUri: String?, postBody: String? = nil, sessionId: String? = nil, idToken: String? = nil, pendingToken: String? = nil,
        returnIdpCredential: Bool? = nil, returnSecureToken: Bool? = true, returnRefreshToken: Bool? = nil, autoCreate: Bool? = nil
    ) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.sessionId = sessionId
        self.idToken = idToken
        self.pendingToken = pendingToken
        self.returnIdpCredential = returnIdpCredential
        self.returnSecureToken = returnSecureToken
        self.returnRefreshToken = returnRefreshToken
        self.autoCreate = autoCreate
    }
}
