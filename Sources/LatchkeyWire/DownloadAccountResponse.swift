/// Firebase's `DownloadAccountResponse` (`accounts:batchGet`): a page of users, and the token of the next page when
/// there are more.
public struct DownloadAccountResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#DownloadAccountResponse"
    /// Absent, not empty, on a page without users, as Google's answers leave empty lists out.
    public var users: [UserInfo]?
    public var nextPageToken: String?

    public init(users: [UserInfo]?, nextPageToken: String?) {
        self.users = users
        self.nextPageToken = nextPageToken
    }
}
