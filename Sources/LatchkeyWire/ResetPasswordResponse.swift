/// Firebase's answer to `accounts:resetPassword`: what the code is for, and for whom.
public struct ResetPasswordResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#ResetPasswordResponse"
    /// The address the code is for; never for a sign-in code, whose address the app must get from its user.
    public var email: String?
    /// For an address change the new address; for its undo the address the account was changed to.
    public var newEmail: String?
    public var requestType: OobRequestType

    public init(email: String?, newEmail: String? = nil, requestType: OobRequestType) {
        self.email = email
        self.newEmail = newEmail
        self.requestType = requestType
    }
}
