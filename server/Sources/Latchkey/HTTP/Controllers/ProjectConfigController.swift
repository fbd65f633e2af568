import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// The project's configuration: `GET /v1/projects` and v3 `getProjectConfig` (the project id and `authorizedDomains`,
/// as the SDKs ask before a sign-in with a provider) for apps, and v2 `projects/{p}/config` (with the second-factor
/// settings, `mfa`) for admins. Both are read from the configuration file, which is where they are changed.
struct ProjectConfigController {
    let answer: GetProjectConfigResponse
    let resource: ProjectConfigResource

    init(projectID: String, authorizedDomains: Set<String>, secondFactors: SecondFactorPolicy) {
        answer = GetProjectConfigResponse(projectId: projectID, authorizedDomains: authorizedDomains.sorted())
        let state = (secondFactors.isEnabled ? SecondFactorConfiguration.State.enabled : .disabled).rawValue
        resource = ProjectConfigResource(
            name: "projects/\(projectID)/config",
            mfa: .init(
                state: state,
                providerConfigs: [.init(state: state, totpProviderConfig: .init(adjacentIntervals: secondFactors.adjacentIntervals))]),
            authorizedDomains: authorizedDomains.sorted())
    }

    @Sendable func projectConfig(_ request: Request, context: AppRequestContext) async throws -> GetProjectConfigResponse {
        answer
    }

    @Sendable func adminConfig(_ request: Request, context: AdminRequestContext) async throws -> ProjectConfigResource {
        resource
    }
}
