import Foundation
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import LatchkeyStoreBench
import Logging
import Synchronization
import Testing

/// `latchkey-store-bench` replays the statements the service runs for a send and for a completion, so that its ceiling
/// stays the ceiling of what Latchkey really writes: a change to either path fails here until the replay follows it.
@Suite struct StoreReplayTests {
    /// The SQL a store ran since the last `take()`.
    final class Statements: Sendable {
        private let recorded = Mutex<[String]>([])

        func append(_ sql: String) { recorded.withLock { $0.append(sql) } }

        func take() -> [String] {
            recorded.withLock { recorded in
                defer { recorded = [] }
                return recorded
            }
        }
    }

    struct Services {
        let issuer: LinkIssuer
        let completer: LinkCompleter
        let replay: StoreReplay
        let secret: ServerSecret
        let statements: Statements
    }

    let logger = Logger(label: "test")
    let requester = RequesterSummary(ipAddress: "127.0.0.1")

    /// The service's issuer and completer and the replay, on one store with the default rate limits, called for a client
    /// that is not an admin.
    func withServices(_ body: (Services) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["tokens.algorithm": "ES256"])
            let statements = Statements()
            let store = try SQLiteStore(path: workspace.databasePath, statementObserver: { statements.append($0) })
            let secret = ServerSecret(material: Data(repeating: 3, count: 32))
            let clock = FixedClock()
            let tokens = try await makeTokens(configuration, store: store, secret: secret, creatingIfMissing: true, clock: clock, logger: logger).issuer
            let finisher = SignInFinisher(minter: SessionMinter(tokens: tokens, secret: secret))
            let limiter = RateLimiter(limits: .standard, secret: secret, store: store, clock: clock)
            let settings = try ActionCodeSettings(
                continueURL: "https://app.example.com/done", canHandleCodeInApp: true, authorizedDomains: ["app.example.com"])
            let services = Services(
                issuer: LinkIssuer(
                    secret: secret, clock: clock, outbox: OutboxSignal(), publicURL: configuration.publicURL, codeLifetime: 600, isDevelopment: false,
                    enumerationProtection: true, limiter: limiter),
                completer: LinkCompleter(
                        store: store, authentication: Authentication(tokens: tokens), secret: secret, clock: clock, finisher: finisher, recentLogin: 300, limiter: limiter,
                        undos: .forTests(configuration, store: store, tokens: tokens, secret: secret, clock: clock, limiter: limiter)),
                replay: StoreReplay(
                    store: store, limits: .standard, secret: secret, clock: clock, codeLifetime: 600, settings: settings,
                    sealedLetter: Data(count: 400), requester: requester),
                secret: secret, statements: statements)
            _ = statements.take()  // the migrations and the signing key
            try await body(services)
        }
    }

    func send(_ address: String, with services: Services) async throws -> String {
        let email = try #require(EmailAddress(address))
        let settings = try ActionCodeSettings(
            continueURL: "https://app.example.com/done", canHandleCodeInApp: true, authorizedDomains: ["app.example.com"])
        let issued = try await services.issuer.issue(
            .init(email: email, settings: settings, language: .english, apiKey: "k", caller: Caller(requester: requester)), logger: logger)
        return try #require(issued).code
    }

    @Test func aReplayedSendRunsTheStatementsOfASend() async throws {
        try await withServices { services in
            _ = try await send("alice@example.com", with: services)
            let service = services.statements.take()
            try await services.replay.send(.init(email: try #require(EmailAddress("bob@example.com")), codeHash: Data(count: 32)))
            #expect(services.statements.take() == service)
            #expect(service.contains { $0.hasPrefix("INSERT INTO outbox") })
        }
    }

    @Test func aReplayedCompletionRunsTheStatementsOfACompletion() async throws {
        try await withServices { services in
            let code = try await send("alice@example.com", with: services)
            _ = services.statements.take()
            _ = try await services.completer.complete(
                EmailLinkSigninRequest(email: "alice@example.com", oobCode: code), by: Caller(requester: requester), logger: logger)
            let service = services.statements.take()

            let planted = StoreReplay.Send(
                email: try #require(EmailAddress("bob@example.com")), codeHash: services.secret.hash("code", for: .linkCode))
            try await services.replay.plant([planted])
            _ = services.statements.take()
            try await services.replay.complete(planted)
            #expect(services.statements.take() == service)
            #expect(service.contains { $0.hasPrefix("INSERT INTO refresh_tokens") })
        }
    }
}
