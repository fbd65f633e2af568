import Foundation
import GRDB
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct SQLiteStoreTests {
    /// Every migration from `first` on, in order: what opening a database made before `first` applies.
    static func migrations(from first: String) -> [String] {
        let all = SQLiteMigrations.migrator.migrations
        return all.contains(first) ? Array(all.drop { $0 != first }) : []
    }

    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let alice = EmailAddress("alice@example.com")!

    func pending(_ hash: UInt8, minutesAgo: Double = 0) -> PendingRequest {
        let created = now.addingTimeInterval(-minutesAgo * 60)
        return PendingRequest(
            codeHash: Data(repeating: hash, count: 32), email: alice, createdAt: created, expiresAt: created.addingTimeInterval(600),
            language: .english, continueURL: "https://app.example.com")
    }

    @Test func stateSurvivesReopeningTheFile() async throws {
        try await withWorkspace { workspace in
            let request = pending(5)
            try await SQLiteStore(path: workspace.databasePath).write { try await $0.insert(request) }
            let reopened = try SQLiteStore(path: workspace.databasePath)
            #expect(try await reopened.read { try await $0.pendingRequest(codeHash: request.codeHash)?.email } == alice)
        }
    }

    /// Leaves a database file as an older Latchkey would: migrated up to `migration` only, holding what `sql` inserts.
    func makeOldDatabase(_ workspace: TestWorkspace, upTo migration: String, holding sql: String) async throws {
        let old = try DatabaseQueue(path: workspace.databasePath)
        try SQLiteMigrations.migrator.migrate(old, upTo: migration)
        try await old.write { try $0.execute(sql: sql) }
        try old.close()
    }

    @Test func rateCountersKeepTheirCountsThroughTheRekeying() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v7: what an outbox row's sealed content is",
                holding: """
                    INSERT INTO rate_counters (key, window_start, count, expires_at)
                    VALUES ('sendPerEmail:3600:c3ViamVjdA', 100, 4, 3700), ('sendPerIP:300:aXA-_x', 300, 9, 600)
                    """)
            _ = try SQLiteStore(path: workspace.databasePath)
            let rows = try await workspace.openDatabase().read { db in
                try Row.fetchAll(db, sql: "SELECT key, window_start, count, expires_at FROM rate_counters ORDER BY key").map {
                    [$0["key"] as String, "\($0["window_start"] as Int)", "\($0["count"] as Int)", "\($0["expires_at"] as Int)"]
                }
            }
            #expect(rows == [["aXA-_x:sendPerIP:300", "300", "9", "600"], ["c3ViamVjdA:sendPerEmail:3600", "100", "4", "3700"]])
        }
    }

    /// Each refresh chain becomes one session, revoked when any of its tokens was, anonymous when its account has no address.
    @Test func refreshChainsBecomeSessions() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v9: indexes for retention",
                holding: """
                    INSERT INTO accounts (id, email, valid_since, created_at) VALUES ('alice', 'alice@example.com', 0, 0), ('anon', NULL, 0, 0);
                    INSERT INTO refresh_tokens (token_hash, account_id, chain_id, auth_time, created_at, rotated_at, revoked_at, revoked_with_account)
                    VALUES (x'01', 'alice', 'live', 100, 100, 150, NULL, 0), (x'02', 'alice', 'live', 100, 150, NULL, NULL, 0),
                        (x'03', 'alice', 'stolen', 200, 200, 250, 260, 0), (x'04', 'alice', 'stolen', 200, 250, NULL, 260, 0),
                        (x'05', 'alice', 'stripped', 300, 300, NULL, 400, 1), (x'06', 'anon', 'guest', 500, 500, NULL, NULL, 0);
                    """)
            let store = try SQLiteStore(path: workspace.databasePath)
            #expect(store.applied == Self.migrations(from: "v10: sessions"))
            let sessions = try await store.read { tx in
                var sessions: [SessionRecord] = []
                for id in ["live", "stolen", "stripped", "guest"] { sessions.append(try #require(try await tx.session(id: id))) }
                return sessions
            }
            #expect(sessions.map(\.accountID) == ["alice", "alice", "alice", "anon"])
            #expect(sessions.map(\.signInProvider) == [.password, .password, .password, .anonymous])
            #expect(sessions.map(\.authTime.timeIntervalSince1970) == [100, 200, 300, 500])
            #expect(sessions.map { $0.revokedAt?.timeIntervalSince1970 } == [nil, 260, 400, nil])
            #expect(sessions.map(\.isRevokedWithAccount) == [false, false, true, false])
            let token = try await store.read { try await $0.refreshToken(hash: Data([2])) }
            #expect(token?.sessionID == "live" && token?.rotatedAt == nil)
        }
    }

    /// Every account with an address gets its email identity; an anonymous account gets none.
    @Test func accountsWithAnAddressGetTheirEmailIdentity() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v10: sessions",
                holding: """
                    INSERT INTO accounts (id, email, email_verified, valid_since, created_at)
                    VALUES ('alice', 'alice@example.com', 1, 0, 10), ('bob', 'bob@example.com', 0, 0, 20), ('anon', NULL, 0, 0, 30);
                    """)
            let store = try SQLiteStore(path: workspace.databasePath)
            #expect(store.applied == Self.migrations(from: "v11: identities, outbox claim tokens"))
            let identities = try await store.read { tx in
                (try await tx.identities(accountID: "alice"), try await tx.identities(accountID: "bob"), try await tx.identities(accountID: "anon"))
            }
            #expect(identities.0.map { [$0.providerID, $0.providerUserID, $0.email?.value, "\($0.isEmailVerified)"] } == [["password", "alice@example.com", "alice@example.com", "true"]])
            #expect(identities.1.map(\.isEmailVerified) == [false] && identities.2.isEmpty)
        }
    }

    /// The outbox is rebuilt without the CHECK on `format`: its rows, ids and sequence survive, its status stays checked,
    /// and a kind of letter no migration named is accepted.
    @Test func theOutboxKeepsItsRowsAndTakesAnyFormat() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v19: custom claims",
                holding: """
                    INSERT INTO outbox (id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error,
                        sent_at, format, claim_token)
                    VALUES (7, 'alice@example.com', x'0102', 10, 'pending', 1, 20, 30, 'busy', NULL, 'email-action', 'claim'),
                        (9, 'bob@example.com', x'03', 11, 'sent', 2, 21, NULL, NULL, 40, 'security-notice', NULL);
                    INSERT INTO outbox (id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, format)
                    VALUES (11, 'bob@example.com', x'04', 12, 'failed', 5, 22, 'mime');
                    DELETE FROM outbox WHERE id = 11;
                    """)
            let before = try await workspace.openDatabase().read { db in try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map(\.description) }
            let store = try SQLiteStore(path: workspace.databasePath)
            #expect(store.applied == Self.migrations(from: "v20: changes a second-factor challenge applies"))
            #expect(store.applied.contains("v21: outbox formats left to the domain"))
            let database = try workspace.openDatabase()
            let after = try await database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map(\.description) }
            #expect(before.count == 2 && after == before)
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO outbox (recipient, created_at, next_attempt_at, format) VALUES ('carol@example.com', 12, 22, 'a-new-kind')")
            }
            let (id, format) = try await database.read { db in
                (try Int.fetchOne(db, sql: "SELECT MAX(id) FROM outbox"), try String.fetchOne(db, sql: "SELECT format FROM outbox WHERE recipient = 'carol@example.com'"))
            }
            #expect(id == 12 && format == "a-new-kind")  // the sequence remembers the deleted 11
            await #expect(throws: DatabaseError.self) {
                try await database.write { db in
                    try db.execute(sql: "INSERT INTO outbox (recipient, created_at, next_attempt_at, status) VALUES ('dan@example.com', 1, 1, 'lost')")
                }
            }
            let indexes = try await database.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' AND sql IS NOT NULL")
            }
            #expect(indexes == ["outbox_due"])
        }
    }

    @Test func mailQueuedBeforeTheUpgradeStaysFinishedMIME() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v6: the apps a pending request names",
                holding: "INSERT INTO outbox (recipient, sealed_message, created_at, next_attempt_at) VALUES ('alice@example.com', x'010203', 0, 0)")
            let store = try SQLiteStore(path: workspace.databasePath)
            #expect(store.applied.first == "v7: what an outbox row's sealed content is")
            let now = now
            let claimed = try await store.write { try await $0.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(60), limit: 10) }
            #expect(claimed.count == 1 && claimed.first?.message.format == .mime && claimed.first?.message.sealedContent == Data([1, 2, 3]))
        }
    }
}

/// The database holds sessions and sealed mail: only the service's own user may read it, whatever the umask.
@Suite struct SQLiteFileModeTests {
    let alice = EmailAddress("alice@example.com")!

    @Test func theDataDirectoryTheDatabaseAndItsLogAreOwnerOnly() async throws {
        try await withWorkspace { workspace in
            let data = workspace.directory.appendingPathComponent("data")
            let path = data.appendingPathComponent("latchkey.sqlite").path
            let store = try SQLiteStore(path: path)
            let message = OutboxMessage(recipient: .email(alice), format: .mime, sealedContent: Data([1]), createdAt: Date())
            try await store.write { try await $0.enqueue(message) }
            func mode(_ path: String) throws -> Int {
                try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            }
            #expect(try mode(data.path) == 0o700)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(try mode(file) == 0o600, "\(file)")
            }
        }
    }
}

@Suite struct SQLiteDurabilityTests {
    @Test(arguments: [(StorageConfiguration.Synchronous.normal, "journal wal, synchronous normal"), (.full, "journal wal, synchronous full")])
    func commitsGetTheConfiguredSynchronousLevel(_ level: StorageConfiguration.Synchronous, _ expected: String) async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteStore(path: workspace.databasePath, synchronous: level)
            #expect(try await store.durability() == expected)
        }
    }
}
