/// Firebase's answer to `accounts:lookup`.
public struct GetAccountInfoResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#GetAccountInfoResponse"
    /// Empty when an admin lookup matches nothing.
    public var users: [UserInfo]

    public init(users: [UserInfo]) {
        self.users = users
    }
}
