/// Firebase's answer to `accounts:delete`.
public struct DeleteAccountResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#DeleteAccountResponse"

    public init() {}
}
