import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// Security events land in the audit table with who asked, and `auditEvents(email:)` finds them.
@Suite struct AuditTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)", .userAgent: "ops-console/1.0"]

    @Test func aTakeoverAndItsAftermathAreAudited() async throws {
        try await withApp(["rateLimits.completePerIP": [["limit": 5, "windowSeconds": 60]]], testing: .live) { client, workspace, mailbox in
            let attacker = try await client.post("/v1/accounts:signUp", json: #"{"email":"victim@example.com","password":"attacker-pw"}"#).json
            let accountID = try #require(attacker["localId"] as? String)
            try await client.sendLink(to: "victim@example.com", headers: [.userAgent: "VictimPhone/2.0"])
            #expect(try await client.complete(email: "victim@example.com", code: try await mailbox.code()).status == .ok)
            let disable = #"{"localId":"\#(accountID)","disableUser":true}"#
            #expect(try await client.post("/v1/accounts:update", json: disable, key: nil, headers: Self.admin).status == .ok)
            #expect(try await client.post("/v1/accounts:delete", json: #"{"localId":"\#(accountID)"}"#, key: nil, headers: Self.admin).status == .ok)
            for _ in 0..<6 { _ = try await client.complete(email: "victim@example.com", code: "guess") }

            let store = try SQLiteStore(path: workspace.databasePath)
            let victim = try #require(EmailAddress("victim@example.com"))
            let events = try await store.read { try await $0.auditEvents(email: victim, limit: 50) }.reversed().map { $0 }
            #expect(
                events.map(\.kind) == [
                    .signInCompleted, .codeIssued, .passwordStripped, .sessionsRevoked, .signInCompleted, .accountDisabled, .accountDeleted,
                ])
            #expect(events.allSatisfy { $0.requester.ipAddress == "127.0.0.1" })
            #expect(events[0].accountID == accountID && events[0].detail == "new account")
            #expect(events[1].requester.userAgent == "VictimPhone/2.0" && events[1].accountID == nil)
            #expect(events[2...].allSatisfy { $0.accountID == accountID })
            #expect(events[5].detail == "an admin" && events[5].requester.userAgent == "ops-console/1.0")

            let blocks = try await workspace.openDatabase().read { db in
                try String.fetchAll(db, sql: "SELECT detail FROM audit_events WHERE kind = 'rate_limited'")
            }
            #expect(blocks == ["completePerIP"])  // 7 attempts against a limit of 5: the window's first refusal only
            let everything = try await workspace.openDatabase().read { db in
                try String.fetchAll(db, sql: "SELECT COALESCE(detail, '') || COALESCE(user_agent, '') FROM audit_events")
            }
            #expect(!everything.joined().contains("attacker-pw") && !everything.joined().contains("guess"))
        }
    }

    @Test func aDatabaseFromANewerVersionIsRefused() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteStore(path: workspace.databasePath)
            #expect(store.applied.count >= 5)
            #expect(try SQLiteStore(path: workspace.databasePath).applied.isEmpty)
            try await workspace.openDatabase().write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
            }
            #expect(throws: StartupError.self) { try SQLiteStore(path: workspace.databasePath) }
        }
    }
}
