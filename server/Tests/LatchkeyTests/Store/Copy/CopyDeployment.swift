import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// A deployment to move: populated through the running server over HTTP, copied, counted, and served again.
enum CopyDeployment {
    static let logger = Logger(label: "test")
    static let continueURI = "https://app.example.com/__/auth/handler"

    /// A per-address limit loose enough never to refuse, so that sends leave rate counters to copy; and the test
    /// provider, so that provider sign-ins leave their sessions and pending credentials.
    static func settings() async throws -> [String: Any] {
        let provider = try await OIDCProviderMock.shared.value
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-copy-client-secret")
        // Atomically: the test's cases run at once, and one must never read the file while another rewrites it.
        try Data("copy-secret".utf8).write(to: secret, options: .atomic)
        return [
            "rateLimits.sendPerEmail": [["limit": 100, "windowSeconds": 3600]], "authorizedDomains": ["app.example.com"], "mfa.state": "ENABLED",
            "identityProviders": [
                [
                    "providerId": "oidc.mock", "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
                    "responseType": ["code": true], "clientSecret": ["file": secret.path],
                ]
            ],
        ]
    }

    /// What the deployment issued before its copy.
    struct Issued {
        /// Alice's code, sent but not used.
        let code: String
        /// Bob's refresh token after one rotation.
        let refreshToken: String
        let accountID: String
        /// A provider sign-in started but not finished: the provider's authorization URL and the session id.
        let authorizationURL: String
        let sessionID: String
        /// Erin's `pendingToken`, from another account's attempt to link her identity.
        let pendingToken: String
        /// Dave's authenticator, and the challenge his last sign-in stopped at.
        let authenticator: TestAuthenticator
        let pendingCredential: String
    }

    /// A provider the admin API adds, with its client secret sealed in the store.
    static let runtimeProvider = "/v2/projects/test-project/oauthIdpConfigs"
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]

    /// Serves a new deployment: Bob, Carol and Dave sign in, Bob refreshes once, Alice is sent a code she has not used
    /// yet, Dave turns on an authenticator and signs in again up to its code, Carol starts to turn one on, Erin signs in
    /// with the provider and Frank starts to, an admin adds a provider, Grace says a sign-in wasn't her, and an app
    /// verification receipt waits for its send, which leaves rows in every table.
    static func populate(_ configuration: AppConfiguration, clock: RunningClock) async throws -> Issued {
        try await initialize(configuration, now: clock.now)
        // A receipt `accounts:verifyClient` handed out, as the store keeps it (its push needs APNs, which
        // `AppVerificationTests` stands in for).
        let opened = try await makeStore(configuration, logger: logger)
        defer { withExtendedLifetime(opened) {} }
        let receipt = AppReceipt(receiptHash: Data("receipt".utf8), secretHash: Data("secret".utf8), expiresAt: clock.now.addingTimeInterval(3600))
        try await opened.store.write { try await $0.insert(receipt) }
        return try await serve(configuration, clock: clock) { client, mailbox in
            var tokens: [String: [String: Any]] = [:]
            for (index, name) in ["bob", "carol", "dave"].enumerated() {
                try await client.sendLink(to: "\(name)@example.com")
                tokens[name] = try await client.complete(email: "\(name)@example.com", code: try await mailbox.code(at: index)).json
            }
            let refreshed = try await client.refresh(try #require(tokens["bob"]?["refreshToken"] as? String)).json
            try await client.sendLink(to: "alice@example.com")
            let aliceCode = try await mailbox.code(at: 3)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(tokens["dave"]?["idToken"] as? String), at: clock.now)
            try await client.sendLink(to: "dave@example.com")
            // Message 4 tells Dave his authenticator was added.
            let challenged = try await client.complete(email: "dave@example.com", code: try await mailbox.code(at: 5)).json
            let carol = try #require(tokens["carol"]?["idToken"] as? String)
            // A code texted for a phone sign-in, waiting for its number's owner.
            #expect(try await client.post("/v1/accounts:sendVerificationCode", json: #"{"phoneNumber":"+16505550101"}"#).status == .ok)
            #expect(try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(carol)","totpEnrollmentInfo":{}}"#).status == .ok)
            let provider = try await OIDCProviderMock.shared.value
            _ = try await client.post(
                "/v1/accounts:signInWithIdp",
                json: #"{"requestUri":"http://localhost","postBody":"id_token=\#(try await provider.idToken(subject: "erin-copy-1"))&providerId=oidc.mock"}"#)
            // Another account's attempt to link Erin's identity gets it back with a pendingToken (the SDKs' "already in use").
            let other = try #require(try await client.post("/v1/accounts:signUp", json: "{}").json["idToken"] as? String)
            let erin = try await client.post(
                "/v1/accounts:signInWithIdp",
                json: #"""
                    {"requestUri":"http://localhost","postBody":"id_token=\#(try await provider.idToken(subject: "erin-copy-1"))&providerId=oidc.mock","idToken":"\#(other)","returnIdpCredential":true}
                    """#
            ).json
            let started = try await client.post(
                "/v1/accounts:createAuthUri", json: #"{"providerId":"oidc.mock","continueUri":"\#(continueURI)"}"#).json
            let added = try await client.post(
                runtimeProvider + "?oauthIdpConfigId=oidc.runtime",
                json: #"{"clientId":"runtime","issuer":"https://sso.example.com","clientSecret":"runtime-secret","responseType":{"code":true}}"#,
                key: nil, headers: admin)
            #expect(added.status == .ok)
            // Grace says a sign-in she did not ask for wasn't her: her address cools off.
            let report = try SignInReport(email: try #require(EmailAddress("grace@example.com")), issuedAt: clock.now)
                .token(secret: try ServerSecret.load(configuration.security, creatingIfMissing: false))
            let reported = try await client.post(
                SignInReport.path, json: "token=\(report)&intent=report", key: nil, headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(reported.status == .ok)
            return Issued(
                code: aliceCode, refreshToken: try #require(refreshed["refresh_token"] as? String),
                accountID: try #require(refreshed["user_id"] as? String), authorizationURL: try #require(started["authUri"] as? String),
                sessionID: try #require(started["sessionId"] as? String), pendingToken: try #require(erin["pendingToken"] as? String),
                authenticator: authenticator, pendingCredential: try #require(challenged["mfaPendingCredential"] as? String))
        }
    }

    /// Runs `body` against a server on `configuration`'s store, over real HTTP.
    static func serve<T: Sendable>(
        _ configuration: AppConfiguration, clock: RunningClock, _ body: @Sendable (any TestClientProtocol, Mailbox) async throws -> T
    ) async throws -> T {
        let app = try await buildApplication(
            configuration, clock: clock, logger: logger, templates: TestTemplates.library(for: configuration.templatesDirectory))
        let mailbox = Mailbox(directory: URL(fileURLWithPath: configuration.mail.fileDirectory))
        return try await app.test(.live) { client in try await body(client, mailbox) }
    }

    /// Copies `source`'s store into `target`'s, as `latchkey copy` does.
    static func copy(_ source: AppConfiguration, to target: AppConfiguration, pageSize: Int = 500) async throws -> [StoreCopier.TableCount] {
        let from = try await makeStore(source, logger: logger)
        let to = try await makeStore(target, logger: logger)
        defer { withExtendedLifetime((from, to)) {} }
        let copier = StoreCopier(
            from: from.store, secret: try ServerSecret.load(source.security, creatingIfMissing: false), to: to.store,
            secret: try ServerSecret.load(target.security, creatingIfMissing: false), pageSize: pageSize, logger: logger)
        return try await copier.copy()
    }

    /// How many rows each table of `configuration`'s store holds.
    static func rowCounts(_ configuration: AppConfiguration) async throws -> [StoreCopier.TableCount] {
        let opened = try await makeStore(configuration, logger: logger)
        defer { withExtendedLifetime(opened) {} }
        return try await StoreCopier.rowCounts(of: opened.store)
    }
}
