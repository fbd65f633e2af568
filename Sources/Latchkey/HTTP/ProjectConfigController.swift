import Hummingbird
import LatchkeyWire

/// `GET /v1/projects` and v3 `getProjectConfig`: the project id and `authorizedDomains`, as the SDKs ask before a
/// sign-in with a provider.
struct ProjectConfigController {
    let answer: GetProjectConfigResponse

    init(projectID: String, authorizedDomains: Set<String>) {
        answer = GetProjectConfigResponse(projectId: projectID, authorizedDomains: authorizedDomains.sorted())
    }

    @Sendable func projectConfig(_ request: Request, context: AppRequestContext) async throws -> GetProjectConfigResponse {
        answer
    }
}
