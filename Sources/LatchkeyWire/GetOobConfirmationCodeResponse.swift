/// Firebase's answer to `accounts:sendOobCode`: the normalized address, and for an admin's `returnOobLink` the link.
public struct GetOobConfirmationCodeResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    public var email: String
    /// Only for an admin's `returnOobLink: true`.
    public var oobCode: String?
    /// Only for an admin's `returnOobLink: true`.
    public var oobLink: String?

    public init(email: String, oobCode: String? = nil, oobLink: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}
