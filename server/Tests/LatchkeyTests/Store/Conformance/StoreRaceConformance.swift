import Foundation
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Logging
import Testing

/// The rules that must hold with concurrent writers, whatever the store: each rests on a constraint or a conditional
/// statement, never on there being one writer.
@Suite(.outsideProcesses) struct StoreRaceConformance {
    struct Services {
        let store: any Store
        let secret: ServerSecret
        let completer: LinkCompleter
        let passwords: PasswordAccounts
        let refresher: SessionRefresher
        let limiter: RateLimiter
    }

    static let logger = Logger(label: "test")

    static func withServices(_ kind: StoreKind, limits: RateLimits = RateLimits(windows: [:]), _ body: (Services) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let configuration = try await kind.configuration(in: workspace)
            let opened = try await makeStore(configuration, logger: logger)
            let store = opened.store
            let clock = FixedClock()
            let secret = ServerSecret(material: Data(repeating: 5, count: 32))
            let tokens = try await makeTokens(configuration, store: store, secret: secret, creatingIfMissing: true, clock: clock, logger: logger).issuer
            let minter = SessionMinter(tokens: tokens, secret: secret)
            let finisher = SignInFinisher(minter: minter)
            let limiter = RateLimiter(limits: limits, secret: secret, store: store, clock: clock)
            defer { withExtendedLifetime(opened) {} }
            try await body(
                    Services(
                        store: store, secret: secret,
                        completer: LinkCompleter(
                        store: store, authentication: Authentication(tokens: tokens), secret: secret, clock: clock, finisher: finisher, recentLogin: 300, limiter: limiter,
                        undos: .forTests(configuration, store: store, tokens: tokens, secret: secret, clock: clock, limiter: limiter)),
                        passwords: PasswordAccounts(
                            store: store, authentication: Authentication(tokens: tokens), hasher: PasswordHasher(cost: 4, secret: secret, limits: .patient), clock: clock, finisher: finisher, enumerationProtection: false,
                            limiter: limiter, notices: SecurityNotices(secret: secret, outbox: OutboxSignal()), recentLogin: 300),
                        refresher: SessionRefresher(store: store, secret: secret, clock: clock, minter: minter),
                        limiter: limiter))
        }
    }

    /// Runs `attempt` `count` times at once and returns what each ended with.
    static func race<T: Sendable>(_ count: Int, _ attempt: @escaping @Sendable (Int) async throws -> T) async -> [Result<T, any Error>] {
        await withTaskGroup(of: Result<T, any Error>.self) { group in
            for index in 0..<count {
                group.addTask {
                    do { return .success(try await attempt(index)) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    static func errors<T>(_ outcomes: [Result<T, any Error>]) -> [String] {
        outcomes.compactMap { outcome in
            guard case .failure(let error) = outcome else { return nil }
            return (error as? SignInError)?.code ?? "\(error)"
        }
    }

    @Test(arguments: StoreKind.all) func fiftyCompletionsOfOneCodeSignInOnce(_ kind: StoreKind) async throws {
        try await Self.withServices(kind) { services in
            let request = PendingRequest(
                codeHash: services.secret.hash("the-code", for: .linkCode), email: Fixture.alice, createdAt: FixedClock().now,
                expiresAt: FixedClock().now.addingTimeInterval(600), language: .english, continueURL: "https://app.example.com")
            try await services.store.write { try await $0.insert(request) }
            let outcomes = await Self.race(50) { _ in
                try await services.completer.complete(EmailLinkSigninRequest(email: Fixture.alice.value, oobCode: "the-code"), logger: Self.logger)
            }
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1)
            #expect(Self.errors(outcomes) == Array(repeating: "INVALID_OOB_CODE", count: 49))
        }
    }

    /// Eight codes for one new address completed at once: one creates the account, the others sign in to it, and a
    /// completion that lost the race to create it is counted once against the client's limit, not again when it retries.
    @Test(arguments: StoreKind.all) func completionsOfCodesForOneNewAddressShareOneAccount(_ kind: StoreKind) async throws {
        let codes = (0..<8).map { "code-\($0)" }
        try await Self.withServices(kind, limits: RateLimits(windows: [.completePerIP: [.init(limit: codes.count, seconds: 300)]])) { services in
            for code in codes {
                let request = PendingRequest(
                    codeHash: LinkCode.key(code, secret: services.secret), email: Fixture.alice, createdAt: FixedClock().now,
                    expiresAt: FixedClock().now.addingTimeInterval(600), language: .english, continueURL: "https://app.example.com")
                try await services.store.write { try await $0.insert(request) }
            }
            let sessions = try await Self.race(codes.count) { index in
                try await services.completer.complete(EmailLinkSigninRequest(email: Fixture.alice.value, oobCode: codes[index]), logger: Self.logger)
            }.map { try $0.get() }
            #expect(Set(sessions.map(\.account.id)).count == 1)
            #expect(sessions.filter(\.isNewUser).count == 1)
        }
    }

    @Test(arguments: StoreKind.all) func twentySignUpsOfOneAddressMakeOneAccount(_ kind: StoreKind) async throws {
        try await Self.withServices(kind) { services in
            let outcomes = await Self.race(20) { _ in
                try await services.passwords.signUp(email: Fixture.alice, password: "correct horse", logger: Self.logger)
            }
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1)
            #expect(Self.errors(outcomes) == Array(repeating: "EMAIL_EXISTS", count: 19))
            let identities = try await services.store.read { tx in
                try await tx.identities(accountID: try #require(try await tx.account(email: Fixture.alice)).id)
            }
            #expect(identities.map(\.providerID) == ["password"])
        }
    }

    /// One refresh rotates the token; the others present a rotated token, which revokes the session (theft detection).
    @Test(arguments: StoreKind.all) func twentyRefreshesOfOneTokenRotateItOnceAndRevokeTheSession(_ kind: StoreKind) async throws {
        try await Self.withServices(kind) { services in
            let session = try await services.passwords.signUp(email: nil, password: nil, logger: Self.logger)
            let outcomes = await Self.race(20) { _ in try await services.refresher.refresh(token: session.refreshToken, logger: Self.logger) }
            let rotated = try #require(outcomes.compactMap { try? $0.get() }.first)
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1)
            #expect(Self.errors(outcomes) == Array(repeating: "INVALID_REFRESH_TOKEN", count: 19))
            await #expect(throws: SignInError.invalidRefreshToken) {
                try await services.refresher.refresh(token: rotated.refreshToken, logger: Self.logger)
            }
        }
    }

    /// Of 40 attempts at once 7 pass a limit of 7; the refused ones count in no other window, and only the window's first
    /// refusal is audited.
    @Test(arguments: StoreKind.all) func concurrentAttemptsNeverGetPastTheLimit(_ kind: StoreKind) async throws {
        let limits = RateLimits(windows: [.sendPerIP: [.init(limit: 7, seconds: 60)], .sendPerEmail: [.init(limit: 8, seconds: 60)]])
        try await Self.withServices(kind, limits: limits) { services in
            let outcomes = await Self.race(40) { _ in
                try await services.limiter.admit(
                    [.init(.sendPerEmail, "alice@example.com"), .init(.sendPerIP, "203.0.113.1")], email: Fixture.alice)
            }
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 7)
            #expect(outcomes.allSatisfy { outcome in
                guard case .failure(let error) = outcome else { return true }
                return (error as? RateLimited)?.rule == .sendPerIP
            })
            try await services.limiter.admit([.init(.sendPerEmail, "alice@example.com"), .init(.sendPerIP, "203.0.113.2")])
            let events = try await services.store.read { try await $0.auditEvents(email: Fixture.alice, limit: 100) }
            #expect(events.map(\.kind) == [.rateLimited] && events.first?.detail == "sendPerIP")
        }
    }

    @Test(arguments: StoreKind.all) func twoClaimersNeverGetTheSameMessage(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                for byte in 0..<100 { try await tx.enqueue(Fixture.message(UInt8(byte))) }
            }
            let claims = await Self.race(8) { _ in
                var claimed: [Int64] = []
                while true {
                    let batch = try await store.write {
                        try await $0.claimOutboxMessages(now: Fixture.now, leaseUntil: Fixture.now.addingTimeInterval(60), limit: 3)
                    }
                    if batch.isEmpty { return claimed }
                    claimed += batch.compactMap(\.message.id)
                }
            }
            let ids = try claims.flatMap { try $0.get() }
            #expect(ids.count == 100 && Set(ids).count == 100)
        }
    }
}

extension PasswordHashingLimits {
    /// Limits whose wait a loaded test machine never reaches, for tests about something else.
    static var patient: PasswordHashingLimits {
        var limits = PasswordHashingLimits()
        limits.maximumWait = .seconds(60)
        limits.checksPerAddress = 64
        return limits
    }
}
