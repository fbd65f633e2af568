/// Firebase's `GetProjectConfigResponse` (`GET /v1/projects`, v3 `getProjectConfig`): the domains a sign-in may return
/// to, which the JS SDK checks before a popup or redirect and the iOS SDK reads to find its auth domain.
public struct GetProjectConfigResponse: Sendable, Codable, Equatable {
    public var projectId: String
    public var authorizedDomains: [String]

    public init(projectId: String, authorizedDomains: [String]) {
        self.projectId = projectId
        self.authorizedDomains = authorizedDomains
    }
}
