import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// Abuse limits through the API, on a real SQLite file, with a clock the test moves.
@Suite struct RateLimitTests {
    static func windows(_ pairs: (Int, Int)...) -> [[String: Int]] {
        pairs.map { ["limit": $0.0, "windowSeconds": $0.1] }
    }

    static func countRows(_ workspace: TestWorkspace) async throws -> Int? {
        try await workspace.openDatabase().read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM pending_requests) + (SELECT COUNT(*) FROM outbox)")
        }
    }

    @Test func thePerAddressLimitRefusesWithRetryAfterWhenEnumerationProtectionIsOff() async throws {
        let clock = FixedClock()
        let limits: [String: Any] = ["rateLimits.sendPerEmail": Self.windows((1, 60), (5, 3600)), "emailEnumerationProtection": false]
        try await withApp(limits, clock: clock) { client, workspace, _ in
            #expect(try await client.sendLink().status == .ok)
            clock.advance(by: 20)
            let refused = try await client.sendLink()
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(refused.headers[.retryAfter] == "40")
            #expect(try await Self.countRows(workspace) == 2)  // the first request's pending row and mail only

            clock.advance(by: 40)
            #expect(try await client.sendLink().status == .ok)
            #expect(try await client.sendLink(to: "bob@example.com").status == .ok)  // another address is counted apart
        }
    }

    @Test func withEnumerationProtectionThePerAddressLimitAnswersLikeASendButMailsNothing() async throws {
        try await withApp(["rateLimits.sendPerEmail": Self.windows((1, 60))]) { client, workspace, mailbox in
            let first = try await client.sendLink()
            let second = try await client.sendLink()
            #expect(second.status == .ok && second.text == first.text && second.headers[.retryAfter] == nil)
            _ = try await mailbox.waitForMessages(1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(mailbox.messages().count == 1)
            #expect(try await Self.countRows(workspace) == 2)
        }
    }

    @Test func thePerIPLimitCountsEveryAddressAndStoresNothingPastIt() async throws {
        try await withApp(["rateLimits.sendPerIP": Self.windows((2, 300))], testing: .live) { client, workspace, _ in
            #expect(try await client.sendLink(to: "a@example.com").status == .ok)
            #expect(try await client.sendLink(to: "b@example.com").status == .ok)
            let refused = try await client.sendLink(to: "c@example.com")
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(try await Self.countRows(workspace) == 4)
        }
    }

    @Test func guessingCodesIsCutOffPerIP() async throws {
        try await withApp(["rateLimits.completePerIP": Self.windows((3, 300))], testing: .live) { client, _, mailbox in
            try await client.sendLink()
            for _ in 0..<3 { #expect(try await client.complete(code: "guess-\(UUID())").errorMessage == "INVALID_OOB_CODE") }
            let refused = try await client.complete(code: try await mailbox.code())
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let password = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"a@example.com","password":"secret-pw"}"#)
            #expect(password.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test func adminRequestsCountAgainstNoLimit() async throws {
        try await withApp(["rateLimits.sendPerEmail": Self.windows((1, 60)), "rateLimits.apiKeyRequestsPerMinute": 1]) { client, _, _ in
            for _ in 0..<3 {
                let response = try await client.post(
                    "/v1/accounts:sendOobCode",
                    json: #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","returnOobLink":true}"#,
                    key: nil, headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
                #expect(response.status == .ok)
            }
        }
    }

    @Test func anAPIKeyGetsItsQuotaPerMinute() async throws {
        let clock = FixedClock()
        try await withApp(["rateLimits.apiKeyRequestsPerMinute": 2], clock: clock) { client, _, _ in
            #expect(try await client.sendLink(to: "a@example.com").status == .ok)
            #expect(try await client.sendLink(to: "b@example.com").status == .ok)
            let refused = try await client.sendLink(to: "c@example.com")
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER" && refused.headers[.retryAfter] == "60")
            clock.advance(by: 60)
            #expect(try await client.sendLink(to: "c@example.com").status == .ok)
        }
    }

    @Test func countsLiveInTheDatabaseSoARestartKeepsThem() async throws {
        try await withWorkspace { workspace in
            let clock = FixedClock()
            let secret = ServerSecret(material: Data(repeating: 7, count: 32))
            let limits = RateLimits(windows: [.completePerIP: [.init(limit: 1, seconds: 300)]])
            func limiter() throws -> RateLimiter {
                RateLimiter(limits: limits, secret: secret, store: try SQLiteLinkStore(path: workspace.databasePath), clock: clock)
            }
            try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
            await #expect(throws: RateLimited(rule: .completePerIP, retryAfter: 300)) {
                try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
            }
            let stored = try await workspace.openDatabase().read { try String.fetchAll($0, sql: "SELECT key FROM rate_counters") }
            #expect(stored.count == 1 && !stored[0].contains("203.0.113.7"))

            clock.advance(by: 301)
            let store = try SQLiteLinkStore(path: workspace.databasePath)
            await ExpiredRowSweeper(store: store, clock: clock, auditRetention: 86_400, logger: .init(label: "test")).sweep()
            #expect(try await workspace.openDatabase().read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM rate_counters") } == 0)
            try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
        }
    }
}
