import Foundation
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Logging
import Synchronization
import Testing

/// `accounts:update` and `accounts:delete` decide whether an ID token still counts inside the write that acts: a
/// revocation that lands after the token's signature was checked, before that write, still refuses the request, and the
/// account stays as it was. On both stores.
@Suite(.outsideProcesses) struct AccountAdministrationRaceTests {
    let logger = Logger(label: "test")
    let alice = EmailAddress("alice@example.com")!

    @Test(arguments: StoreKind.all) func aDeletionWhoseSessionIsRevokedBeforeItsWriteDeletesNothing(_ kind: StoreKind) async throws {
        try await withRevocationRace(kind) { administration, session, store in
            await #expect(throws: SignInError.tokenExpired) {
                try await administration.delete(DeleteAccountRequest(idToken: session.idToken), by: Caller(), logger: logger)
            }
            let id = session.account.id
            let kept = try await store.read { try await $0.account(id: id) }
            #expect(kept != nil)
        }
    }

    @Test(arguments: StoreKind.all) func anUpdateWhoseSessionIsRevokedBeforeItsWriteChangesNothing(_ kind: StoreKind) async throws {
        try await withRevocationRace(kind) { administration, session, store in
            await #expect(throws: SignInError.tokenExpired) {
                try await administration.update(
                    SetAccountInfoRequest(idToken: session.idToken, displayName: "Mallory"), language: .english, by: Caller(), logger: logger)
            }
            let id = session.account.id
            let kept = try await store.read { try await $0.account(id: id) }
            #expect(kept != nil && kept?.displayName == nil)
        }
    }

    /// Signs Alice up, then runs `body` with an administration whose store revokes her sessions just before its first write.
    private func withRevocationRace(
        _ kind: StoreKind, _ body: (AccountAdministration, Session, any Store) async throws -> Void
    ) async throws {
        try await withWorkspace { workspace in
            let configuration = try await kind.configuration(in: workspace)
            let opened = try await makeStore(configuration, logger: logger)
            defer { withExtendedLifetime(opened) {} }
            let store = opened.store
            let clock = FixedClock()
            let secret = ServerSecret(material: Data(repeating: 7, count: 32))
            let tokens = try await makeTokens(configuration, store: store, secret: secret, creatingIfMissing: true, clock: clock, logger: logger).issuer
            let authentication = Authentication(tokens: tokens)
            let finisher = SignInFinisher(minter: SessionMinter(tokens: tokens, secret: secret))
            let limiter = RateLimiter(limits: RateLimits(windows: [:]), secret: secret, store: store, clock: clock)
            let hasher = PasswordHasher(cost: 4, secret: secret, limits: .patient)
            let notices = SecurityNotices(secret: secret, outbox: OutboxSignal())
            let passwords = PasswordAccounts(
                store: store, authentication: authentication, hasher: hasher, clock: clock, finisher: finisher, enumerationProtection: false,
                limiter: limiter, notices: notices, recentLogin: 300)
            let session = try await passwords.signUp(email: alice, password: "alice's password", logger: logger)
            let racing = RevokingBeforeFirstWrite(store, accountID: session.account.id, at: clock.now)
            let actionCodes = ActionCodes(
                store: racing, secret: secret, clock: clock, hasher: hasher,
                issuer: .forTests(configuration, store: racing, tokens: tokens, secret: secret, clock: clock, limiter: limiter), limiter: limiter)
            let administration = AccountAdministration(
                store: racing, authentication: authentication, actionCodes: actionCodes, hasher: hasher, clock: clock, finisher: finisher,
                notices: notices, recentLogin: 300)
            try await body(administration, session, store)
        }
    }
}

/// A store that, asked for its first write, first revokes an account's sessions in a write of its own: a revocation that
/// lands between a request's check of its token's signature and the write that acts on the account.
private final class RevokingBeforeFirstWrite: Store {
    private let base: any Store
    private let pending: Mutex<(accountID: String, at: Date)?>

    init(_ base: any Store, accountID: String, at now: Date) {
        self.base = base
        pending = Mutex((accountID, now))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        if let (accountID, now) = pending.withLock({ pending in defer { pending = nil }; return pending }) {
            try await base.write { try await $0.revokeSessions(accountID: accountID, at: now) }
        }
        return try await base.write(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await base.read(body)
    }

    func readSnapshot<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await base.readSnapshot(body)
    }
}
