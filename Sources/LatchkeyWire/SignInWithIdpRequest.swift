/// Firebase's `SignInWithIdpRequest` (`accounts:signInWithIdp`, v3 `verifyAssertion`): sign in, sign up or link with
/// a credential from an identity provider.
public struct SignInWithIdpRequest: Sendable, Codable, Equatable {
    /// Where the provider sent the user back (its query and fragment carry the credential), or `http://localhost` for a
    /// credential the app obtained itself.
    public var requestUri: String?
    /// The credential, form-encoded: `providerId`, `id_token`, `access_token`, `nonce` (the raw nonce), `code`.
    public var postBody: String?
    public var sessionId: String?
    /// A signed-in user's Firebase ID token: the provider's identity is linked to that account.
    public var idToken: String?
    public var pendingToken: String?
    /// Answer `FEDERATED_USER_ID_ALREADY_LINKED` and `EMAIL_EXISTS` as a 200 with `errorMessage` and the credential.
    public var returnIdpCredential: Bool?
    public var returnSecureToken: Bool?
    /// False for re-authentication: an identity without an account is `USER_NOT_FOUND` instead of a new account.
    public var autoCreate: Bool?

    public init(
        requestUri: String?, postBody: String? = nil, sessionId: String? = nil, idToken: String? = nil, pendingToken: String? = nil,
        returnIdpCredential: Bool? = nil, returnSecureToken: Bool? = true, autoCreate: Bool? = nil
    ) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.sessionId = sessionId
        self.idToken = idToken
        self.pendingToken = pendingToken
        self.returnIdpCredential = returnIdpCredential
        self.returnSecureToken = returnSecureToken
        self.autoCreate = autoCreate
    }
}
