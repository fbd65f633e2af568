import Foundation
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Logging
import Testing

/// The domain services on their own (no HTTP), with a fixed clock and a real SQLite file.
@Suite struct LinkFlowTests {
    struct Services {
        let issuer: LinkIssuer
        let completer: LinkCompleter
        let refresher: SessionRefresher
        let store: SQLiteStore
        let secret: ServerSecret
    }

    let clock = FixedClock()
    let logger = Logger(label: "test")
    let alice = EmailAddress("alice@example.com")!

    func withServices(_ body: (Services) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration()
            let store = try SQLiteStore(path: workspace.databasePath)
            let secret = ServerSecret(material: Data(repeating: 3, count: 32))
            let tokens = try await makeTokens(configuration, store: store, secret: secret, creatingIfMissing: true, clock: clock, logger: logger).issuer
            let minter = SessionMinter(tokens: tokens, secret: secret)
            let finisher = SignInFinisher(minter: minter)
            let limiter = RateLimiter(limits: configuration.rateLimits.limits, secret: secret, store: store, clock: clock)
            let issuer = LinkIssuer(
                secret: secret, clock: clock, outbox: OutboxSignal(), publicURL: configuration.publicURL,
                codeLifetime: 600, isDevelopment: false, enumerationProtection: true, limiter: limiter)
            try await body(
                Services(
                    issuer: issuer,
                    completer: LinkCompleter(
                        store: store, authentication: Authentication(tokens: tokens), secret: secret, clock: clock, finisher: finisher, recentLogin: 300, limiter: limiter,
                        undos: .forTests(configuration, store: store, tokens: tokens, secret: secret, clock: clock, limiter: limiter)),
                    refresher: SessionRefresher(store: store, secret: secret, clock: clock, minter: minter), store: store, secret: secret))
        }
    }

    /// Stores a pending request for `code` the way the issuer would, so the test knows the code.
    func plant(_ code: String, for email: EmailAddress, in services: Services) async throws {
        let now = clock.now
        let request = PendingRequest(
            codeHash: LinkCode.key(code, secret: services.secret), email: email, createdAt: now, expiresAt: now.addingTimeInterval(600),
            language: .english, continueURL: "https://app.example.com")
        try await services.store.write { try await $0.insert(request) }
    }

    @Test func issuingStoresOnlyAHashAndQueuesASealedLetter() async throws {
        try await withServices { services in
            let settings = try ActionCodeSettings(continueURL: "https://app.example.com", authorizedDomains: ["app.example.com"])
            let caller = Caller(requester: RequesterSummary(ipAddress: "203.0.113.5"))
            let (code, link) = try #require(
                try await services.issuer.issue(.init(email: alice, settings: settings, language: .english, apiKey: "k", caller: caller), logger: logger))
            let now = clock.now
            let queued = try #require(
                try await services.store.write { try await $0.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(60), limit: 5) }.first?.message)
            #expect(queued.recipient == .email(alice) && queued.format == .signInLetter)
            #expect(!String(decoding: queued.sealedContent, as: UTF8.self).contains(code))
            let letter = try SignInLetter(decoding: services.secret.open(queued.sealedContent))
            #expect(letter.link == link.url && letter.link.contains("oobCode=\(code)"))
            #expect(letter.expiresInMinutes == 10 && letter.ipAddress == "203.0.113.5" && letter.requestedAt == clock.now.timeIntervalSince1970)
        }
    }

    /// A code begins with the second it was made and is stored under that prefix and its hash; a link made before 0.10
    /// (43 random characters, stored under the hash alone) still signs in after the upgrade.
    @Test func codesSortByCreationAndLinksMadeBeforeStillSignIn() async throws {
        try await withServices { services in
            let settings = try ActionCodeSettings(continueURL: "https://app.example.com", authorizedDomains: ["app.example.com"])
            let request = LinkIssuer.Request(email: alice, settings: settings, language: .english, apiKey: "k", caller: Caller())
            let (code, _) = try #require(try await services.issuer.issue(request, logger: logger))
            #expect(code.count == 50 && code.hasPrefix(CreationSecond.base36(clock.now)))
            let key = LinkCode.key(code, secret: services.secret)
            #expect(key == Data(code.prefix(7).utf8) + services.secret.hash(code, for: .linkCode))
            #expect(try await services.store.read { try await $0.pendingRequest(codeHash: key) } != nil)
            let before = ServerSecret.makeToken()
            let bob = try #require(EmailAddress("bob@example.com"))
            let stored = PendingRequest(
                codeHash: services.secret.hash(before, for: .linkCode), email: bob, createdAt: clock.now,
                expiresAt: clock.now.addingTimeInterval(600), language: .english, continueURL: "https://app.example.com")
            try await services.store.write { try await $0.insert(stored) }
            _ = try await services.completer.complete(EmailLinkSigninRequest(email: bob.value, oobCode: before), logger: logger)
        }
    }

    @Test func aCodeExpiresExactlyAtItsLifetime() async throws {
        try await withServices { services in
            try await plant("code-1", for: alice, in: services)
            clock.advance(by: 599)
            try await plant("code-2", for: alice, in: services)
            _ = try await services.completer.complete(EmailLinkSigninRequest(email: alice.value, oobCode: "code-1"), logger: logger)
            clock.advance(by: 600)
            await #expect(throws: SignInError.expiredOOBCode) { try await services.completer.complete(EmailLinkSigninRequest(email: alice.value, oobCode: "code-2"), logger: logger) }
        }
    }

    @Test func refreshKeepsTheOriginalAuthTime() async throws {
        try await withServices { services in
            try await plant("code", for: alice, in: services)
            let session = try await services.completer.complete(EmailLinkSigninRequest(email: alice.value, oobCode: "code"), logger: logger).session
            clock.advance(by: 1000)
            let refreshed = try await services.refresher.refresh(token: session.refreshToken, logger: logger)
            #expect(refreshed.account.id == session.account.id && !refreshed.isNewUser)
            await #expect(throws: SignInError.invalidRefreshToken) {
                try await services.refresher.refresh(token: session.refreshToken, logger: logger)
            }
        }
    }
}
