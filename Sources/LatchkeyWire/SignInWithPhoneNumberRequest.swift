/// Firebase's `SignInWithPhoneNumberRequest` (`v1 accounts:signInWithPhoneNumber`): a texted code with its
/// `sessionInfo`, or a `temporaryProof` with its number; with `idToken`, the number is linked to that account
/// (firebase-js-sdk `packages/auth/src/api/authentication/sms.ts`: `signInWithPhoneNumber`, `linkWithPhoneNumber`).
public struct SignInWithPhoneNumberRequest: Sendable, Codable, Equatable {
    public var sessionInfo: String?
    public var code: String?
    public var temporaryProof: String?
    public var phoneNumber: String?
    public var idToken: String?
    public var tenantId: String?

    public init(
        sessionInfo: String? = nil, code: String? = nil, temporaryProof: String? = nil, phoneNumber: String? = nil, idToken: String? = nil,
        tenantId: String? = nil
    ) {
        self.sessionInfo = sessionInfo
        self.code = code
        self.temporaryProof = temporaryProof
        self.phoneNumber = phoneNumber
        self.idToken = idToken
        self.tenantId = tenantId
    }
}
