import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Logging
import Testing

/// App verification (#34): `accounts:verifyClient` over HTTP through the app `buildApplication` makes, its silent push
/// at a local APNs over HTTP/2, and `AppVerification.check` (which every "send a text" flow calls first) wired as
/// `AppServices` wires it, over the same store; captcha tokens checked by a local siteverify.
@Suite(.outsideProcesses) struct AppVerificationTests {
    static let bundleHeader = HTTPField.Name("X-Ios-Bundle-Identifier")

    @Test(arguments: StoreKind.all)
    func aPushedReceiptAdmitsOneSendAndNoOther(_ kind: StoreKind) async throws {
        try await withVerification(store: kind) { client, verification, stubs in
            let token = Self.deviceToken()
            let answer = try await client.verifyClient(token, sandbox: true)
            #expect(answer.status == .ok)
            let receipt = try #require(try answer.json["receipt"] as? String)
            #expect(try answer.json["suggestedTimeout"] as? String == "10")

            let push = try #require(try stubs.pushes(to: token).first)
            #expect(push["prefix"] as? String == "/sandbox")
            #expect(push["http_version"] as? String == "2")
            let headers = ["apns-topic": AppVerificationStubs.bundleID, "apns-push-type": "background", "apns-priority": "5"]
            #expect(push["headers"] as? [String: String] == headers)
            let payload = try #require(push["payload"] as? [String: Any])
            #expect(payload["aps"] as? [String: Int] == ["content-available": 1])
            let credential = try #require(payload["com.google.firebase.auth"] as? [String: String])
            #expect(credential["receipt"] == receipt)
            let secret = try #require(credential["secret"])

            await #expect(throws: SignInError.invalidAppCredential(Self.unusable)) {
                try await verification.check(Self.send(receipt: receipt, secret: "not-the-secret"), by: Caller())
            }
            try await verification.check(Self.send(receipt: receipt, secret: secret), by: Caller())
            await #expect(throws: SignInError.invalidAppCredential(Self.unusable)) {
                try await verification.check(Self.send(receipt: receipt, secret: secret), by: Caller())
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func concurrentSendsShareNoReceipt(_ kind: StoreKind) async throws {
        try await withVerification(store: kind) { client, verification, stubs in
            let token = Self.deviceToken()
            let receipt = try #require(try await client.verifyClient(token).json["receipt"] as? String)
            let secret = try #require(try stubs.pushedSecret(to: token))
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { (try? await verification.check(Self.send(receipt: receipt, secret: secret), by: Caller())) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 1)
        }
    }

    @Test func anExpiredReceiptIsRefused() async throws {
        let clock = RunningClock()
        try await withVerification(clock: clock) { client, verification, stubs in
            let token = Self.deviceToken()
            let receipt = try #require(try await client.verifyClient(token).json["receipt"] as? String)
            let secret = try #require(try stubs.pushedSecret(to: token))
            #expect(try stubs.pushes(to: token).first?["prefix"] as? String == "/production")
            clock.advance(by: AppVerification.receiptLifetime + 1)
            await #expect(throws: SignInError.invalidAppCredential(Self.unusable)) {
                try await verification.check(Self.send(receipt: receipt, secret: secret), by: Caller())
            }
        }
    }

    @Test func whatAPNsRefusesOrNeverAnswersIsAFirebaseError() async throws {
        try await withVerification { client, _, _ in
            let refused = try await client.verifyClient(String(repeating: "00", count: 32))
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "INVALID_APP_CREDENTIAL : APNs refused the device token: BadDeviceToken")
            let down = try await client.verifyClient(String(repeating: "22", count: 32))
            #expect(down.status == .serviceUnavailable)
            #expect(down.errorMessage == "The service is currently unavailable: APNs did not answer in time. Try again shortly.")
            let started = ContinuousClock.now
            let slow = try await client.verifyClient(String(repeating: "11", count: 32))
            #expect(slow.status == .serviceUnavailable)
            #expect(ContinuousClock.now - started < .seconds(10), "appVerification.apns.timeoutSeconds is 2")
        }
    }

    /// APNs answers 403 `ExpiredProviderToken` (or `InvalidProviderToken`) to a provider token it no longer takes: the
    /// next push makes a new one rather than sending the refused one for the rest of its 50 minutes.
    @Test func aProviderTokenAPNsRefusedIsMadeAfresh() async throws {
        try await withVerification { client, _, stubs in
            let first = Self.deviceToken()
            #expect(try await client.verifyClient(first).status == .ok)
            #expect(try await client.verifyClient(String(repeating: "33", count: 32)).status == .serviceUnavailable)
            // A second later, so that a new token differs by its `iat` (APNs, and the stub, refuse one from the future).
            try await Task.sleep(for: .milliseconds(1_100))
            let second = Self.deviceToken()
            #expect(try await client.verifyClient(second).status == .ok)
            let issued = try [first, second].map { try #require(try stubs.pushes(to: $0).first?["iat"] as? Int) }
            #expect(issued[1] > issued[0])
        }
    }

    @Test func verifyClientRefusesWhatCannotBePushed() async throws {
        try await withVerification { client, _, stubs in
            #expect(try await client.post("/v1/accounts:verifyClient", json: "{}").errorMessage == "MISSING_IOS_APP_TOKEN")
            #expect(try await client.verifyClient("not hex").errorMessage == "INVALID_APP_CREDENTIAL : The APNs device token must be hexadecimal.")
            let other = try await client.verifyClient(Self.deviceToken(), bundleID: "com.example.other")
            #expect(other.errorMessage?.hasPrefix("INVALID_IOS_BUNDLE_ID") == true)
            // Without the header the one listed app is meant, under every v1 path family.
            let token = Self.deviceToken()
            let scoped = try await client.post(
                "/identitytoolkit.googleapis.com/v1/projects/test-project/accounts:verifyClient", json: #"{"appToken":"\#(token)"}"#)
            #expect(scoped.status == .ok)
            #expect(try stubs.pushes(to: token).first?["headers"] as? [String: String] != nil)
        }
    }

    @Test func verifyClientIsCountedPerClientAddress() async throws {
        let limit: [String: Any] = ["rateLimits.verifyClientPerIP": [["limit": 2, "windowSeconds": 300]]]
        try await withVerification(limit) { client, _, _ in
            let answers = [
                try await client.verifyClient(Self.deviceToken()), try await client.verifyClient(Self.deviceToken()),
                try await client.verifyClient(Self.deviceToken()),
            ]
            #expect(answers.map(\.status) == [.ok, .ok, .badRequest])
            #expect(answers.last?.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test func withoutAPNsVerifyClientIsNotAllowedAndWithNothingConfiguredEverySendPasses() async throws {
        try await withVerification(apns: false, captcha: false) { client, verification, _ in
            let refused = try await client.verifyClient(Self.deviceToken())
            #expect(refused.errorMessage == "OPERATION_NOT_ALLOWED : This server sends no silent pushes (appVerification.apns is not configured).")
            #expect(verification.isOff)
            try await verification.check(SendVerificationCodeRequest(phoneNumber: "+15555550100"), by: Caller())
        }
    }

    @Test func aSendWithoutProofPassesInDevelopmentModeOnly() async throws {
        let bare = SendVerificationCodeRequest(phoneNumber: "+15555550100")
        try await withVerification { _, verification, _ in
            await #expect(throws: SignInError.missingAppCredential) { try await verification.check(bare, by: Caller()) }
            await #expect(throws: SignInError.missingAppCredential) {
                try await verification.check(Self.send(receipt: "a-receipt", secret: ""), by: Caller())
            }
            // What the SDKs send when reCAPTCHA Enterprise is off is no token.
            var placeholder = bare
            placeholder.captchaResponse = "NO_RECAPTCHA"
            await #expect(throws: SignInError.missingAppCredential) { try await verification.check(placeholder, by: Caller()) }
        }
        try await withVerification(["mode": "development"]) { _, verification, _ in
            try await verification.check(bare, by: Caller())
        }
    }

    @Test func captchaTokensAreCheckedWithTheProvider() async throws {
        try await withVerification(["appVerification.captcha.minimumScore": 0.5]) { _, verification, stubs in
            let caller = Caller(requester: RequesterSummary(ipAddress: "203.0.113.9"))
            try await verification.check(SendVerificationCodeRequest(phoneNumber: "+15555550100", recaptchaToken: "pass"), by: caller)
            #expect(try stubs.siteverifyCalls(for: "pass").last as? [String: String]
                == ["secret": AppVerificationStubs.captchaSecret, "response": "pass", "remoteip": "203.0.113.9"])
            // A reCAPTCHA Enterprise token is checked the same way.
            try await verification.check(
                SendVerificationCodeRequest(phoneNumber: "+15555550100", captchaResponse: "pass", recaptchaVersion: "RECAPTCHA_ENTERPRISE"),
                by: caller)
            for (token, reason) in [
                ("forged", "The captcha provider refused the token (invalid-input-response)."),
                ("low-score", "The captcha score is below appVerification.captcha.minimumScore."),
                ("elsewhere", "The captcha was solved on a host that is not an authorized domain."),
            ] {
                await #expect(throws: SignInError.captchaCheckFailed(reason)) {
                    try await verification.check(SendVerificationCodeRequest(phoneNumber: "+15555550100", recaptchaToken: token), by: caller)
                }
            }
            await #expect(throws: AppVerificationUnavailable(service: "captcha")) {
                try await verification.check(SendVerificationCodeRequest(phoneNumber: "+15555550100", recaptchaToken: "slow"), by: caller)
            }
        }
    }

    @Test func aCaptchaTokenWithoutAProviderFailsTheCheck() async throws {
        try await withVerification(captcha: false) { _, verification, _ in
            await #expect(throws: SignInError.captchaCheckFailed("No captcha provider is configured (appVerification.captcha).")) {
                try await verification.check(SendVerificationCodeRequest(phoneNumber: "+15555550100", recaptchaToken: "pass"), by: Caller())
            }
        }
    }

    @Test func recaptchaParamsPublishesTheSiteKey() async throws {
        try await withVerification { client, _, _ in
            let answer = try await client.execute(uri: "/v1/recaptchaParams?key=\(TestWorkspace.apiKey)", method: .get)
            let expected = ["kind": "identitytoolkit#GetRecaptchaParamResponse", "recaptchaSiteKey": "test-site-key"]
            #expect(try answer.json as? [String: String] == expected)
        }
    }

    // MARK: - Helpers

    static let unusable = "The receipt is unknown, used or expired, or its secret is wrong."

    /// A device token no other test uses: the stubs are shared by the whole run.
    static func deviceToken() -> String {
        ServerSecret.randomBytes(32).map { String(format: "%02x", $0) }.joined()
    }

    static func send(receipt: String, secret: String) -> SendVerificationCodeRequest {
        SendVerificationCodeRequest(phoneNumber: "+15555550100", iosReceipt: receipt, iosSecret: secret)
    }

    /// Serves the app on a fresh store of `kind` with app verification pointed at the stubs, and hands `body` the
    /// client and an `AppVerification` wired as `AppServices` wires it, over the same configuration, store and clock.
    func withVerification(
        _ overrides: [String: Any] = [:], store kind: StoreKind = .sqlite, apns: Bool = true, captcha: Bool = true,
        clock: RunningClock = RunningClock(),
        _ body: @Sendable (any TestClientProtocol, AppVerification, AppVerificationStubs) async throws -> Void
    ) async throws {
        let stubs = try await AppVerificationStubs.shared.value
        try await withWorkspace { workspace in
            let configuration = try await kind.configuration(in: workspace, stubs.settings(apns: apns, captcha: captcha).merging(overrides) { $1 })
            try await initialize(configuration, now: clock.now)
            let logger = Logger(label: "test")
            let app = try await buildApplication(configuration, clock: clock, templates: TestTemplates.library(for: configuration.templatesDirectory))
            let opened = try await makeStore(configuration, logger: logger)
            defer { withExtendedLifetime(opened) {} }
            let secret = try ServerSecret.load(configuration.security, creatingIfMissing: false)
            let verification = AppVerification(
                configuration, store: opened.store, secret: secret, clock: clock,
                limiter: RateLimiter(limits: configuration.rateLimits.limits, secret: secret, store: opened.store, clock: clock),
                verifiers: AppVerifiers(configuration, clock: clock, logger: logger))
            try await app.test(.router) { client in try await body(client, verification, stubs) }
        }
    }
}

extension TestClientProtocol {
    /// `accounts:verifyClient` for `deviceToken`, naming the app as firebase-ios-sdk does.
    func verifyClient(_ deviceToken: String, sandbox: Bool = false, bundleID: String = AppVerificationStubs.bundleID) async throws -> TestResponse {
        var headers = HTTPFields()
        if let name = AppVerificationTests.bundleHeader { headers[name] = bundleID }
        let body = sandbox ? #"{"appToken":"\#(deviceToken)","isSandbox":true}"# : #"{"appToken":"\#(deviceToken)"}"#
        return try await post("/v1/accounts:verifyClient", json: body, headers: headers)
    }
}
