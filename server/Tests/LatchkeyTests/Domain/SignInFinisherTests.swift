import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// The one step every sign-in ends with, on a real store with a fixed time.
@Suite struct SignInFinisherTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let google = SignInProvider(id: "google.com")

    static func withFinisher(_ body: (SignInFinisher, any Store) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration()
            let store = try SQLiteStore(path: workspace.databasePath)
            let secret = ServerSecret(material: Data(repeating: 9, count: 32))
            let tokens = try await makeTokens(
                configuration, store: store, secret: secret, creatingIfMissing: true, clock: FixedClock(now), logger: Logger(label: "test")
            ).issuer
            try await body(SignInFinisher(minter: SessionMinter(tokens: tokens, secret: secret)), store)
        }
    }

    /// An account someone registered with the address and a password, a Google identity and a session of its own.
    static func plantUnprovenAccount(in store: any Store) async throws -> Account {
        var account = Account(
            id: "acct", email: EmailAddress("alice@example.com"), isEmailVerified: false, validSince: now.addingTimeInterval(-100), createdAt: now)
        account.passwordHash = "sha256-bcrypt:x"
        let planted = account
        try await store.write { tx in
            try await tx.insert(planted)
            try await tx.save(
                Identity(
                    providerID: "password", providerUserID: "alice@example.com", accountID: "acct", email: planted.email, isEmailVerified: false,
                    createdAt: now))
            try await tx.save(
                Identity(
                    providerID: "google.com", providerUserID: "g-1", accountID: "acct", email: nil, isEmailVerified: false,
                    createdAt: now.addingTimeInterval(1)))
            try await tx.insert(SessionRecord(id: "old", accountID: "acct", signInProvider: google, authTime: now, createdAt: now))
        }
        return account
    }

    /// A proof of the address by whoever holds the mailbox strips everything set up before it was proven and ends
    /// every earlier session; the new session is the prover's, with the first factor's provider.
    @Test func aProofOfTheAddressTakesOverAnUnprovenAccount() async throws {
        try await Self.withFinisher { finisher, store in
            var account = try await Self.plantUnprovenAccount(in: store)
            let stored = account
            account.isEmailVerified = true
            let attempt = SignInFinisher.Attempt(account: account, stored: stored, provider: .password, provesAddressOnly: true)
            let finished = try await store.write { try await finisher.finish(attempt, at: Self.now, in: $0) }.get()
            #expect(finished.tookOver && !finished.isNewUser)
            #expect(finished.user.account.passwordHash == nil && finished.user.account.validSince == Self.now)
            #expect(finished.user.identities.map(\.providerID) == ["password"] && finished.user.identities.first?.isEmailVerified == true)
            let (old, events) = try await store.read { tx in
                (try await tx.session(id: "old"), try await tx.auditEvents(email: try #require(EmailAddress("alice@example.com")), limit: 10))
            }
            #expect(old?.revokedAt == Self.now)
            #expect(Set(events.map(\.kind)) == [.passwordStripped, .sessionsRevoked, .signInCompleted])
            let session = try finisher.session(for: finished)
            #expect(session.account.id == "acct" && !session.idToken.isEmpty && !session.refreshToken.isEmpty)
        }
    }

    /// A credential of the account itself (its password, its own provider) signs in without stripping anything.
    @Test func theAccountsOwnCredentialStripsNothing() async throws {
        try await Self.withFinisher { finisher, store in
            let account = try await Self.plantUnprovenAccount(in: store)
            let attempt = SignInFinisher.Attempt(account: account, stored: account, provider: Self.google)
            let finished = try await store.write { try await finisher.finish(attempt, at: Self.now, in: $0) }.get()
            #expect(!finished.tookOver && finished.user.account.passwordHash == "sha256-bcrypt:x")
            #expect(finished.user.identities.map(\.providerID) == ["password", "google.com"])
            let (old, new) = try await store.read { tx in (try await tx.session(id: "old"), try await tx.session(id: finished.sessionID ?? "")) }
            #expect(old?.revokedAt == nil && new?.signInProvider == Self.google && new?.authTime == Self.now)
            #expect(finished.user.tokenIdentities == ["email": ["alice@example.com"], "google.com": ["g-1"]])
        }
    }

    /// A disabled account is refused as a verdict, so what the first factor spent (a code) commits with it.
    @Test func aDisabledAccountIsRefusedAndOpensNoSession() async throws {
        try await Self.withFinisher { finisher, store in
            var account = try await Self.plantUnprovenAccount(in: store)
            account.isDisabled = true
            let disabled = account
            try await store.write { try await $0.update(disabled) }
            let attempt = SignInFinisher.Attempt(account: disabled, stored: disabled, provider: .password, provesAddressOnly: true)
            let verdict = try await store.write { try await finisher.finish(attempt, at: Self.now, in: $0) }
            #expect(verdict.refusal == .userDisabled)
            #expect(try await store.read { try await $0.account(id: "acct") }?.passwordHash == "sha256-bcrypt:x")
        }
    }
}
