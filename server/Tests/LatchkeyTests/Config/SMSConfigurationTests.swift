import Foundation
import Latchkey
import Testing

/// The `sms` section: the development default, each gateway's settings, and a refusal naming the key for every way
/// they can be wrong. Secrets come from the environment or a file, never from the JSON.
@Suite struct SMSConfigurationTests {
    static var webhook: [String: Any] {
        ["sms.gateway": "webhook", "sms.webhook.url": "https://hooks.example.com/sms", "sms.webhook.secretEnv": "SMS_SECRET"]
    }
    static var twilio: [String: Any] {
        [
            "sms.gateway": "twilio", "sms.twilio.accountSid": "AC0123", "sms.twilio.from": "+15005550006", "sms.twilio.authTokenEnv": "TWILIO_TOKEN",
        ]
    }

    @Test func theDefaultWritesFilesAndBindsCodesToThePublicHost() async throws {
        try await withWorkspace { workspace in
            let sms = try await workspace.configuration(["sms": [String: Any]()]).sms
            #expect(sms.gateway == .file && sms.fileDirectory == "data/texts" && sms.timeoutSeconds == 10 && sms.webOTPHost == "auth.example.com")
            #expect(sms.webhook == nil && sms.twilio == nil)
        }
    }

    @Test func theWebhookTakesItsSecretFromTheEnvironmentOrAFile() async throws {
        try await withWorkspace { workspace in
            let fromEnvironment = try await workspace.configuration(Self.webhook, environment: ["SMS_SECRET": "whsec_abc"]).sms.webhook
            #expect(fromEnvironment?.url.absoluteString == "https://hooks.example.com/sms" && fromEnvironment?.secret == "whsec_abc")
            let file = workspace.directory.appendingPathComponent("sms-secret")
            try "from-a-file\n".write(to: file, atomically: true, encoding: .utf8)
            let settings = Self.webhook.merging(["sms.webhook.secretEnv": NSNull(), "sms.webhook.secretFile": file.path]) { $1 }
            #expect(try await workspace.configuration(settings).sms.webhook?.secret == "from-a-file")
        }
    }

    @Test func twilioReadsItsAccountSenderAndToken() async throws {
        try await withWorkspace { workspace in
            let twilio = try #require(try await workspace.configuration(Self.twilio, environment: ["TWILIO_TOKEN": "t0k"]).sms.twilio)
            #expect(twilio.baseURL.absoluteString == "https://api.twilio.com" && twilio.accountSID == "AC0123" && twilio.authToken == "t0k")
            #expect(twilio.sender == .number("+15005550006"))
            let service = Self.twilio.merging([
                "sms.twilio.from": NSNull(), "sms.twilio.messagingServiceSid": "MG01", "sms.twilio.baseURL": "http://127.0.0.1:9",
            ]) { $1 }
            let viaService = try #require(try await workspace.configuration(service, environment: ["TWILIO_TOKEN": "t0k"]).sms.twilio)
            #expect(viaService.sender == .messagingService("MG01") && viaService.baseURL.absoluteString == "http://127.0.0.1:9")
        }
    }

    /// Each wrong setting and the one problem it makes.
    static var wrongSettings: [([String: Any], String)] {
        [
            (["sms.gateway": "carrier-pigeon"], #"sms.gateway: must be one of "file", "webhook", "twilio", got "carrier-pigeon""#),
            (Self.webhook.merging(["sms.webhook.url": NSNull()]) { $1 }, #"sms.webhook.url: is required for sms.gateway "webhook""#),
            (
                Self.webhook.merging(["sms.webhook.url": "ftp://hooks.example.com"]) { $1 },
                #"sms.webhook.url: must be an absolute http(s) URL, got "ftp://hooks.example.com""#
            ),
            (
                Self.webhook.merging(["sms.webhook.secretEnv": "UNSET_VARIABLE"]) { $1 },
                "sms.webhook.secretEnv: environment variable UNSET_VARIABLE is not set"
            ),
            (
                Self.webhook.merging(["sms.webhook.secretEnv": NSNull()]) { $1 },
                "sms.webhook.secretEnv: is required (or sms.webhook.secretFile): the secret never goes in the configuration file"
            ),
            (
                Self.webhook.merging(["sms.webhook.secretFile": "/nonexistent/secret"]) { $1 },
                "sms.webhook.secretEnv: give sms.webhook.secretEnv or sms.webhook.secretFile, not both"
            ),
            (Self.twilio.merging(["sms.twilio.accountSid": NSNull()]) { $1 }, #"sms.twilio.accountSid: is required for sms.gateway "twilio""#),
            (
                Self.twilio.merging(["sms.twilio.messagingServiceSid": "MG01"]) { $1 },
                "sms.twilio.from: give sms.twilio.from or sms.twilio.messagingServiceSid, not both"
            ),
            (
                Self.twilio.merging(["sms.twilio.authTokenEnv": NSNull(), "sms.twilio.authTokenFile": "/nonexistent/token"]) { $1 },
                "sms.twilio.authTokenFile: cannot read /nonexistent/token"
            ),
            (Self.webhook.merging(["sms.timeoutSeconds": 60, "mail.retry.leaseSeconds": 30]) { $1 }, "sms.timeoutSeconds: must be shorter than mail.retry.leaseSeconds (30)"),
            (
                ["sms.webOTPHost": "https://app.example.com/"],
                #"sms.webOTPHost: must be a host name such as app.example.com, got "https://app.example.com/""#
            ),
        ]
    }

    @Test func aWrongSettingIsRefusedByItsKey() async throws {
        try await withWorkspace { workspace in
            for (settings, problem) in Self.wrongSettings {
                let problems = try await workspace.problems(settings, environment: ["SMS_SECRET": "s", "TWILIO_TOKEN": "t"])
                #expect(problems == [problem])
            }
        }
    }

    /// The file gateway makes no call, so a lease shorter than the gateways' deadline (common in tests) stays valid.
    @Test func aShortLeaseIsFineForTheFileGateway() async throws {
        try await withWorkspace { workspace in
            let problems = try await workspace.problems(["mail.retry.leaseSeconds": 5])
            #expect(problems.isEmpty)
        }
    }

    @Test func aSectionKeptForAnotherGatewayIsNoUnknownKey() async throws {
        try await withWorkspace { workspace in
            let kept = Self.twilio.merging(["sms.gateway": "file"]) { $1 }
            let problems = try await workspace.problems(kept)
            #expect(problems.isEmpty)
        }
    }
}
