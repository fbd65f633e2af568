import Foundation
import GRDB
import Latchkey
import Testing

@Suite struct SQLiteLinkStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let alice = EmailAddress("alice@example.com")!

    func pending(_ hash: UInt8, minutesAgo: Double = 0) -> PendingRequest {
        let created = now.addingTimeInterval(-minutesAgo * 60)
        return PendingRequest(
            codeHash: Data(repeating: hash, count: 32), email: alice, createdAt: created, expiresAt: created.addingTimeInterval(600),
            language: .english, continueURL: "https://app.example.com")
    }

    /// The unique constraints keep uids and addresses unique, whatever order writers come in: a clash is the conflict it
    /// means, and the transaction goes on without the failed statement.
    @Test func aTakenUidOrAddressIsAnAccountConflict() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            let now = now
            @Sendable func account(_ id: String, _ email: String?) -> Account {
                Account(id: id, email: email.flatMap(EmailAddress.init), isEmailVerified: false, validSince: now, createdAt: now)
            }
            let outcomes = try await store.write { tx -> [AccountConflict?] in
                try tx.insert(account("alice", "alice@example.com"))
                try tx.insert(account("bob", "bob@example.com"))
                func attempt(_ write: () throws -> Void) throws -> AccountConflict? {
                    do {
                        try write()
                        return nil
                    } catch let conflict as AccountConflict {
                        return conflict
                    }
                }
                return [
                    try attempt { try tx.insert(account("alice", "carol@example.com")) },
                    try attempt { try tx.insert(account("carol", "alice@example.com")) },
                    try attempt { try tx.update(account("bob", "alice@example.com")) },
                    try attempt { try tx.insert(account("dave", nil)) },
                ]
            }
            #expect(outcomes == [.idTaken, .emailTaken, .emailTaken, nil])
            let emails = try await store.read { tx in try ["alice", "bob", "carol", "dave"].map { try tx.account(id: $0)?.email?.value } }
            #expect(emails == ["alice@example.com", "bob@example.com", nil, nil])
        }
    }

    @Test func consumingIsAConditionalUpdateThatSucceedsOnce() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            let request = pending(1)
            let id = try await store.write { tx in
                try tx.insert(request)
                return try #require(try tx.pendingRequest(codeHash: request.codeHash)?.id)
            }
            let first = try await store.write { try $0.consumePendingRequest(id: id, at: self.now) }
            let second = try await store.write { try $0.consumePendingRequest(id: id, at: self.now) }
            #expect(first && !second)
            #expect(try await store.write { try $0.pendingRequest(codeHash: request.codeHash)?.isSpent } == true)
        }
    }

    @Test func expiredOrMismatchKilledRequestsCannotBeConsumed() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            let (expired, killed) = (pending(1, minutesAgo: 10), pending(2))
            let ids = try await store.write { tx in
                try tx.insert(expired)
                try tx.insert(killed)
                let killedID = try #require(try tx.pendingRequest(codeHash: killed.codeHash)?.id)
                for _ in 0..<PendingRequest.maximumMismatches { try tx.recordMismatch(pendingRequestID: killedID) }
                return (try #require(try tx.pendingRequest(codeHash: expired.codeHash)?.id), killedID)
            }
            #expect(try await store.write { try $0.consumePendingRequest(id: ids.0, at: self.now) } == false)
            #expect(try await store.write { try $0.consumePendingRequest(id: ids.1, at: self.now) } == false)
        }
    }

    @Test func onlyTheNewestOutstandingRequestsAreKept() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            try await store.write { tx in
                for index in 0..<7 { try tx.insert(self.pending(UInt8(index), minutesAgo: Double(7 - index))) }
                try tx.dropOutstandingRequests(for: self.alice, keepingNewest: 5)
            }
            let kept = try await store.write { tx in (0..<7).map { (try? tx.pendingRequest(codeHash: Data(repeating: UInt8($0), count: 32))) != nil } }
            #expect(kept == [false, false, true, true, true, true, true])
        }
    }

    @Test func aWriteThatThrowsLeavesNothingBehind() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.insert(self.pending(9))
                    throw Abort()
                }
            }
            #expect(try await store.write { try $0.pendingRequest(codeHash: Data(repeating: 9, count: 32)) } == nil)
        }
    }

    @Test func outboxMessagesAreLeasedToOneWorkerAndRetriedAfterTheLease() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            try await store.write { try $0.enqueue(OutboxMessage(recipient: self.alice, format: .mime, sealedContent: Data([1, 2, 3]), createdAt: self.now)) }
            let claimed = try await store.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
            #expect(claimed.count == 1 && claimed.first?.attempts == 1 && claimed.first?.sealedContent == Data([1, 2, 3]))
            #expect(claimed.first?.format == .mime)
            #expect(try await store.claimOutboxMessages(now: now.addingTimeInterval(30), leaseUntil: now.addingTimeInterval(90), limit: 10).isEmpty)
            let again = try await store.claimOutboxMessages(now: now.addingTimeInterval(61), leaseUntil: now.addingTimeInterval(121), limit: 10)
            #expect(again.first?.attempts == 2)

            let id = try #require(again.first?.id)
            try await store.recordDeliveryFailure(outboxID: id, error: "451 try later", retryAt: now.addingTimeInterval(200))
            #expect(try await store.claimOutboxMessages(now: now.addingTimeInterval(199), leaseUntil: now.addingTimeInterval(300), limit: 10).isEmpty)
            #expect(try await store.claimOutboxMessages(now: now.addingTimeInterval(200), leaseUntil: now.addingTimeInterval(300), limit: 10).count == 1)
            try await store.markDelivered(outboxID: id, at: now.addingTimeInterval(201))
            #expect(try await store.claimOutboxMessages(now: now.addingTimeInterval(10_000), leaseUntil: now.addingTimeInterval(10_060), limit: 10).isEmpty)
        }
    }

    @Test func stateSurvivesReopeningTheFile() async throws {
        try await withWorkspace { workspace in
            let request = pending(5)
            try await SQLiteLinkStore(path: workspace.databasePath).write { try $0.insert(request) }
            let reopened = try SQLiteLinkStore(path: workspace.databasePath)
            #expect(try await reopened.write { try $0.pendingRequest(codeHash: request.codeHash)?.email } == alice)
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
            _ = try SQLiteLinkStore(path: workspace.databasePath)
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
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            #expect(store.applied == ["v10: sessions"])
            let sessions = try await store.read { tx in try ["live", "stolen", "stripped", "guest"].map { try #require(try tx.session(id: $0)) } }
            #expect(sessions.map(\.accountID) == ["alice", "alice", "alice", "anon"])
            #expect(sessions.map(\.signInProvider) == [.password, .password, .password, .anonymous])
            #expect(sessions.map(\.authTime.timeIntervalSince1970) == [100, 200, 300, 500])
            #expect(sessions.map { $0.revokedAt?.timeIntervalSince1970 } == [nil, 260, 400, nil])
            #expect(sessions.map(\.isRevokedWithAccount) == [false, false, true, false])
            let token = try await store.read { try $0.refreshToken(hash: Data([2])) }
            #expect(token?.sessionID == "live" && token?.rotatedAt == nil)
        }
    }

    @Test func mailQueuedBeforeTheUpgradeStaysFinishedMIME() async throws {
        try await withWorkspace { workspace in
            try await makeOldDatabase(
                workspace, upTo: "v6: the apps a pending request names",
                holding: "INSERT INTO outbox (recipient, sealed_message, created_at, next_attempt_at) VALUES ('alice@example.com', x'010203', 0, 0)")
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            #expect(store.applied.first == "v7: what an outbox row's sealed content is")
            let claimed = try await store.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
            #expect(claimed.count == 1 && claimed.first?.format == .mime && claimed.first?.sealedContent == Data([1, 2, 3]))
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
            let store = try SQLiteLinkStore(path: path)
            let message = OutboxMessage(recipient: alice, format: .mime, sealedContent: Data([1]), createdAt: Date())
            try await store.write { try $0.enqueue(message) }
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
            let store = try SQLiteLinkStore(path: workspace.databasePath, synchronous: level)
            #expect(try await store.durability() == expected)
        }
    }
}
