import Foundation
import HummingbirdTesting
import Testing

/// `GET /v2/recaptchaConfig`, which the SDKs ask before an email-and-password call they might protect: no provider
/// enforces reCAPTCHA here, so none loads Google's scripts.
@Suite struct RecaptchaConfigTests {
    static let paths = [
        "/v2/recaptchaConfig", "/v2/projects/test-project/recaptchaConfig", "/identitytoolkit.googleapis.com/v2/recaptchaConfig",
        "/identitytoolkit.googleapis.com/v2/projects/test-project/recaptchaConfig",
    ]

    @Test(arguments: paths) func everyProviderIsOff(_ path: String) async throws {
        try await withApp { client, _, _ in
            let answer = try await client.execute(
                uri: "\(path)?key=\(TestWorkspace.apiKey)&clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE", method: .get)
            #expect(answer.status == .ok, "\(answer.text)")
            let config = try answer.json
            let states = try #require(config["recaptchaEnforcementState"] as? [[String: String]])
            #expect(states == [
                ["provider": "EMAIL_PASSWORD_PROVIDER", "enforcementState": "OFF"], ["provider": "PHONE_PROVIDER", "enforcementState": "OFF"],
            ])
            // The JS SDK's RecaptchaConfig refuses an answer without a key of four parts, though it never uses one that is off.
            #expect((config["recaptchaKey"] as? String)?.split(separator: "/").count == 4)
            #expect(config["useSmsBotScore"] as? Bool == false && config["useSmsTollFraudProtection"] as? Bool == false)
        }
    }

    @Test func anotherProjectAndNoKeyAreRefused() async throws {
        try await withApp { client, _, _ in
            let other = try await client.execute(uri: "/v2/projects/other/recaptchaConfig?key=\(TestWorkspace.apiKey)", method: .get)
            #expect(other.status == .notFound)
            #expect(try await client.execute(uri: "/v2/recaptchaConfig", method: .get).status != .ok)
        }
    }
}
