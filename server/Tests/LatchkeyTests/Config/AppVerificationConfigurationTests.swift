import Crypto
import Foundation
import Latchkey
import Testing

/// `appVerification` is checked at start-up, each problem naming its key, and keeps its secrets out of the file.
@Suite struct AppVerificationConfigurationTests {
    @Test func aValidSetupLoadsWithItsKeyFromTheEnvironmentAndItsDefaults() async throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        try await withWorkspace { workspace in
            let settings: [String: Any] = [
                "apps.ios": [["teamId": "TEAM123456", "bundleId": "com.example.app"]],
                "appVerification.apns": ["keyId": "KEY1234567", "teamId": "TEAM123456", "keyEnv": "APNS_KEY"],
                "appVerification.captcha": ["provider": "hcaptcha", "secretEnv": "CAPTCHA_SECRET"],
            ]
            let configuration = try await workspace.configuration(settings, environment: ["APNS_KEY": pem, "CAPTCHA_SECRET": "s3cret"])
            let apns = try #require(configuration.appVerification.apns)
            #expect(apns.productionURL.absoluteString == "https://api.push.apple.com")
            #expect(apns.sandboxURL.absoluteString == "https://api.sandbox.push.apple.com")
            #expect(apns.timeoutSeconds == 10)
            let captcha = try #require(configuration.appVerification.captcha)
            #expect(captcha.siteverifyURL.absoluteString == "https://api.hcaptcha.com/siteverify")
            #expect(captcha.secret == "s3cret" && captcha.minimumScore == 0.5)
        }
    }

    @Test func nothingConfiguredIsOff() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration()
            #expect(configuration.appVerification.apns == nil && configuration.appVerification.captcha == nil)
        }
    }

    @Test func aBadSettingIsNamed() async throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let environment = ["APNS_KEY": pem, "CAPTCHA_SECRET": "s3cret", "NOT_A_KEY": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"]
        let valid: [String: Any] = [
            "apps.ios": [["teamId": "TEAM123456", "bundleId": "com.example.app"]], "appVerification.apns.keyId": "KEY1234567",
            "appVerification.apns.teamId": "TEAM123456", "appVerification.apns.keyEnv": "APNS_KEY", "appVerification.captcha.provider": "recaptcha",
            "appVerification.captcha.secretEnv": "CAPTCHA_SECRET",
        ]
        let cases: [([String: Any], String)] = [
            (["appVerification.apns.keyId": "short"], "appVerification.apns.keyId: must be Apple's 10-character id (letters and digits)"),
            (["appVerification.apns.keyEnv": "UNSET_VARIABLE"], "appVerification.apns.keyEnv: environment variable UNSET_VARIABLE is not set"),
            (
                ["appVerification.apns.keyEnv": "NOT_A_KEY"],
                "appVerification.apns.keyEnv: must hold an APNs key: a P-256 private key in PEM (the .p8 file)"
            ),
            (["appVerification.apns.keyFile": "/nonexistent/key.p8"], "appVerification.apns: needs exactly one of keyFile and keyEnv"),
            (["appVerification.apns.productionURL": "http://127.0.0.1:1"], "appVerification.apns.productionURL: must be an https URL"),
            (["appVerification.apns.timeoutSeconds": 0], "appVerification.apns.timeoutSeconds: must be between 1 and 60, got 0"),
            (["apps.ios": [String]()], "appVerification.apns: needs at least one app in apps.ios, whose bundleId is the push's topic"),
            (
                ["appVerification.captcha.provider": "friendlycaptcha"],
                "appVerification.captcha.provider: must be one of \"recaptcha\", \"hcaptcha\", \"turnstile\", got \"friendlycaptcha\""
            ),
            (["appVerification.captcha.minimumScore": 1.5], "appVerification.captcha.minimumScore: must be between 0 and 1"),
            (
                ["appVerification.captcha.siteverifyURL": "http://captcha.example.com/siteverify"],
                "appVerification.captcha.siteverifyURL: must be an https URL (http only on a loopback host)"
            ),
        ]
        try await withWorkspace { workspace async throws in
            #expect(try await workspace.problems(valid, environment: environment) == [])
            for (bad, message) in cases {
                #expect(try await workspace.problems(valid.merging(bad) { $1 }, environment: environment) == [message], "\(bad)")
            }
        }
    }
}
