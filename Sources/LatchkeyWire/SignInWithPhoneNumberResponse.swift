/// Firebase's answer to `accounts:signInWithPhoneNumber`: a session for the number's account; or, when linking a
/// number another account has, no session but a `temporaryProof` that signs in to that account (the SDKs raise
/// `credential-already-in-use` with a credential made of it).
public struct SignInWithPhoneNumberResponse: Sendable, Codable, Equatable {
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String?
    public var localId: String?
    public var isNewUser: Bool?
    public var phoneNumber: String
    public var temporaryProof: String?
    /// The proof's lifetime in seconds, as a decimal string.
    public var temporaryProofExpiresIn: String?

    public init(
        idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil, localId: String? = nil, isNewUser: Bool? = nil,
        phoneNumber: String, temporaryProof: String? = nil, temporaryProofExpiresIn: String? = nil
    ) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.isNewUser = isNewUser
        self.phoneNumber = phoneNumber
        self.temporaryProof = temporaryProof
        self.temporaryProofExpiresIn = temporaryProofExpiresIn
    }
}
