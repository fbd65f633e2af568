import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// The project's configuration: `GET /v1/projects` and v3 `getProjectConfig` (the project id and `authorizedDomains`,
/// as the SDKs ask before a sign-in with a provider) for apps, and v2 `projects/{p}/config` (with the second-factor
/// settings, `mfa`, and the password policy) for admins; and v2 `recaptchaConfig` and `passwordPolicy` for apps. All are read from the
/// configuration file, which is where they are changed.
struct ProjectConfigController {
    let answer: GetProjectConfigResponse
    let resource: ProjectConfigResource
    let recaptcha: GetRecaptchaConfigResponse
    let policy: GetPasswordPolicyResponse

    init(
        projectID: String, authorizedDomains: Set<String>, secondFactors: SecondFactorPolicy, passwordPolicy: PasswordPolicy, regions: SMSRegionPolicy
    ) {
        answer = GetProjectConfigResponse(projectId: projectID, authorizedDomains: authorizedDomains.sorted())
        policy = GetPasswordPolicyResponse(passwordPolicy)
        let state = (secondFactors.isEnabled ? SecondFactorConfiguration.State.enabled : .disabled).rawValue
        resource = ProjectConfigResource(
            name: "projects/\(projectID)/config",
            mfa: .init(
                state: state, enabledProviders: secondFactors.isEnabled ? ["PHONE_SMS"] : [],
                providerConfigs: [.init(state: state, totpProviderConfig: .init(adjacentIntervals: secondFactors.adjacentIntervals))]),
            authorizedDomains: authorizedDomains.sorted(),
            passwordPolicyConfig: .init(
                passwordPolicyEnforcementState: policy.enforcementState, forceUpgradeOnSignin: policy.forceUpgradeOnSignin ?? false,
                passwordPolicyVersions: [.init(customStrengthOptions: policy.customStrengthOptions)]),
            smsRegionConfig: {
                switch regions {
                case .allowByDefault(let disallowed): .init(disallowedRegions: disallowed.sorted())
                case .allowlistOnly(let allowed): .init(allowedRegions: allowed.sorted())
                }
            }())
        // Latchkey asks no client for a reCAPTCHA token: every provider is off, so no SDK loads Google's scripts. The key
        // is a placeholder in the shape the SDKs split (`projects/{project}/keys/{key}`), which none uses while off.
        recaptcha = GetRecaptchaConfigResponse(
            recaptchaKey: "projects/\(projectID)/keys/recaptcha-not-enforced",
            recaptchaEnforcementState: ["EMAIL_PASSWORD_PROVIDER", "PHONE_PROVIDER"].map { .init(provider: $0, enforcementState: "OFF") },
            useSmsBotScore: false, useSmsTollFraudProtection: false)
    }

    @Sendable func projectConfig(_ request: Request, context: AppRequestContext) async throws -> GetProjectConfigResponse {
        answer
    }

    /// `GET /v2/recaptchaConfig`, asked by the SDKs before the calls reCAPTCHA Enterprise may protect (whatever
    /// `clientType` and `version` they name).
    @Sendable func recaptchaConfig(_ request: Request, context: AppRequestContext) async throws -> GetRecaptchaConfigResponse {
        recaptcha
    }

    /// `GET /v2/passwordPolicy`: the policy new passwords are held to (`passwordPolicy` in the configuration), which
    /// the JS SDK fetches for `validatePassword` and again after a `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`.
    @Sendable func passwordPolicy(_ request: Request, context: AppRequestContext) async throws -> GetPasswordPolicyResponse {
        policy
    }

    @Sendable func adminConfig(_ request: Request, context: AdminRequestContext) async throws -> ProjectConfigResource {
        resource
    }
}
