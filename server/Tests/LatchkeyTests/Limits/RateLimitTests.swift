import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import LatchkeyDomain
import Logging
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

    /// Every `signInWithIdp` attempt counts against the per-IP completion limit, forged credentials too: the check
    /// comes before the credential is read.
    @Test func providerSignInsAreLimitedPerIP() async throws {
        try await withApp(["rateLimits.completePerIP": Self.windows((2, 300))], testing: .live) { client, _, _ in
            let body = #"{"requestUri":"http://localhost","postBody":"id_token=forged&providerId=oidc.none"}"#
            for _ in 0..<2 {
                let admitted = try await client.post("/v1/accounts:signInWithIdp", json: body)
                #expect(admitted.errorMessage == "OPERATION_NOT_ALLOWED")
            }
            let refused = try await client.post("/v1/accounts:signInWithIdp", json: body)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
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
                RateLimiter(limits: limits, secret: secret, store: try SQLiteStore(path: workspace.databasePath), clock: clock)
            }
            try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
            await #expect(throws: RateLimited(rule: .completePerIP, retryAfter: 300)) {
                try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
            }
            let stored = try await workspace.openDatabase().read { try String.fetchAll($0, sql: "SELECT key FROM rate_counters") }
            #expect(stored.count == 1 && !stored[0].contains("203.0.113.7"))

            clock.advance(by: 301)
            let store = try SQLiteStore(path: workspace.databasePath)
            await ExpiredRowSweeper(store: store, clock: clock, policy: RetentionPolicy(), logger: .init(label: "test")).sweep()
            #expect(try await workspace.openDatabase().read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM rate_counters") } == 0)
            try await limiter().admit([.init(.completePerIP, "203.0.113.7")])
        }
    }

    /// A window opens with the address's first send: crossing a clock minute does not reset it.
    @Test func thePerAddressWindowRollsWithTheFirstSendNotTheClockMinute() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: 1_800_000_050))  // 10 s before a minute starts
        let limits: [String: Any] = ["rateLimits.sendPerEmail": Self.windows((1, 60)), "emailEnumerationProtection": false]
        try await withApp(limits, clock: clock) { client, _, _ in
            #expect(try await client.sendLink().status == .ok)
            clock.advance(by: 15)
            let refused = try await client.sendLink()
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(refused.headers[.retryAfter] == "45")
            clock.advance(by: 45)
            #expect(try await client.sendLink().status == .ok)
        }
    }

    @Test func signUpsAreLimitedPerIP() async throws {
        try await withApp(["rateLimits.signUpPerIP": Self.windows((2, 3600))], testing: .live) { client, workspace, _ in
            #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"a@example.com","password":"secret-pw"}"#).status == .ok)
            #expect(try await client.post("/v1/accounts:signUp", json: "{}").status == .ok)
            let refused = try await client.post("/v1/accounts:signUp", json: #"{"email":"b@example.com","password":"secret-pw"}"#)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 3500)
            let accounts = try await workspace.openDatabase().read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM accounts") }
            #expect(accounts == 2)
        }
    }

    /// Wrong passwords are counted per address (from any IP) and per IP (for any address); right ones are not.
    @Test func failedPasswordSignInsAreLimitedPerAddressAndPerIP() async throws {
        let limits: [String: Any] = [
            "rateLimits.passwordPerEmail": Self.windows((3, 900)), "rateLimits.passwordPerIP": Self.windows((5, 300)),
            "emailEnumerationProtection": false,
        ]
        try await withApp(limits, testing: .live) { client, _, _ in
            for email in ["alice@example.com", "bob@example.com"] {
                let created = try await client.post("/v1/accounts:signUp", json: #"{"email":"\#(email)","password":"right-pw"}"#)
                #expect(created.status == .ok)
            }
            for _ in 0..<3 { #expect(try await Self.signIn(client, "alice@example.com", "right-pw").status == .ok) }
            for _ in 0..<3 { #expect(try await Self.signIn(client, "alice@example.com", "wrong-pw").errorMessage == "INVALID_PASSWORD") }
            // Alice's address is locked, even for her right password; Bob's is not.
            #expect(try await Self.signIn(client, "alice@example.com", "right-pw").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await Self.signIn(client, "bob@example.com", "right-pw").status == .ok)
            // Two more failures from this IP, on any address, fill its window.
            #expect(try await Self.signIn(client, "nobody@example.com", "guess").errorMessage == "EMAIL_NOT_FOUND")
            #expect(try await Self.signIn(client, "bob@example.com", "guess").errorMessage == "INVALID_PASSWORD")
            #expect(try await Self.signIn(client, "bob@example.com", "right-pw").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    /// Guesses sent at once from several addresses cannot outrun the per-address limit: each is counted before its
    /// password is checked, so no more than the limit are ever checked, and the right password is refused after them.
    @Test(arguments: StoreKind.all) func concurrentWrongPasswordsAreCheckedNoMoreThanTheLimit(_ store: StoreKind) async throws {
        let limits: [String: Any] = [
            "rateLimits.passwordPerEmail": Self.windows((5, 900)), "emailEnumerationProtection": false,
            "rateLimits.passwordPerIP": Self.windows((100, 300)), "rateLimits.completePerIP": Self.windows((100, 300)),
            // A bcrypt slow enough that every guess is in flight before the first one's check ends, and every guess let
            // into the hashing line: the wrong-password limit alone stops them here.
            "security.passwordHashCost": 10, "security.passwordChecksPerAddress": 64,
        ]
        try await withApp(limits, store: store) { client, _, _ in
            #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"right-pw"}"#).status == .ok)
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for guess in 0..<24 {
                    group.addTask { try await Self.signIn(client, "alice@example.com", "guess-\(guess)").errorMessage }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 == "INVALID_PASSWORD" }.count == 5)
            #expect(answers.filter { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }.count == 19)
            #expect(try await Self.signIn(client, "alice@example.com", "right-pw").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    /// An attempt the hashing line turns away (503) was never checked, so it does not count as a wrong password: a burst
    /// refused that way leaves room in the address's window.
    @Test func attemptsTheHashingLineTurnsAwayAreNotCounted() async throws {
        let limits: [String: Any] = [
            "rateLimits.passwordPerEmail": Self.windows((5, 900)), "emailEnumerationProtection": false,
            "security.passwordHashCost": 10, "security.passwordChecksPerAddress": 1,
        ]
        try await withApp(limits) { client, _, _ in
            let created = try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"right-pw"}"#)
            #expect(created.status == .ok)
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for guess in 0..<4 { group.addTask { try await Self.signIn(client, "alice@example.com", "guess-\(guess)").errorMessage } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            // All four were let past the limit; the line checked some and turned the others away.
            let checked = answers.filter { $0 == "INVALID_PASSWORD" }.count
            try #require(checked >= 1 && checked < 4 && answers.allSatisfy { $0 == "INVALID_PASSWORD" || $0?.contains("unavailable") == true }, "\(answers)")
            // Only the checked guesses count: the window has room for the rest of its five.
            for _ in checked..<5 { #expect(try await Self.signIn(client, "alice@example.com", "wrong-pw").errorMessage == "INVALID_PASSWORD") }
            #expect(try await Self.signIn(client, "alice@example.com", "right-pw").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    /// A right password gives its attempt back: an owner who signs in often never locks themselves out.
    @Test func rightPasswordsDoNotFillThePerAddressWindow() async throws {
        let limits: [String: Any] = ["rateLimits.passwordPerEmail": Self.windows((2, 900)), "emailEnumerationProtection": false]
        try await withApp(limits) { client, _, _ in
            let created = try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"right-pw"}"#)
            #expect(created.status == .ok)
            for _ in 0..<6 { #expect(try await Self.signIn(client, "alice@example.com", "right-pw").status == .ok) }
            #expect(try await Self.signIn(client, "alice@example.com", "wrong-pw").errorMessage == "INVALID_PASSWORD")
            #expect(try await Self.signIn(client, "alice@example.com", "right-pw").status == .ok)
        }
    }

    /// One host commonly holds a /64: rotating addresses inside it must not buy fresh counts.
    @Test func ipv6ClientsAreCountedByTheirNetwork() async throws {
        let settings: [String: Any] = ["rateLimits.sendPerIP": Self.windows((2, 300)), "server.trustedProxies": ["127.0.0.1"]]
        try await withApp(settings, testing: .live) { client, _, _ in
            let first = try await Self.send(client, from: "2001:db8:1:2::a")
            #expect(first.status == .ok)
            #expect(try await Self.send(client, from: "2001:db8:1:2:ffff:1:2:3").status == .ok)
            #expect(try await Self.send(client, from: "2001:db8:1:2::b").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await Self.send(client, from: "2001:db8:1:3::a").status == .ok)
            // IPv4 clients stay per address.
            #expect(try await Self.send(client, from: "192.0.2.1").status == .ok)
            #expect(try await Self.send(client, from: "192.0.2.1").status == .ok)
            #expect(try await Self.send(client, from: "192.0.2.2").status == .ok)
        }
    }

    static func signIn(_ client: any TestClientProtocol, _ email: String, _ password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    static func send(_ client: any TestClientProtocol, from address: String) async throws -> TestResponse {
        try await client.sendLink(to: "\(UUID().uuidString.prefix(8))@example.com", headers: [HTTPField.Name("X-Forwarded-For")!: address])
    }

    /// A developer re-running the Quick start within the minute is told why no email came; production says nothing at info.
    @Test(arguments: [("development", true), ("production", false)])
    func developmentModeSaysWhyASendMailedNothing(_ mode: String, _ explains: Bool) async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        try await withApp(["mode": mode, "rateLimits.sendPerEmail": Self.windows((1, 60))], logger: logger) { client, _, mailbox in
            let first = try await client.sendLink()
            #expect(first.status == .ok)
            #expect(try await client.sendLink().status == .ok)
            _ = try await mailbox.waitForMessages(1)
            let explained = handler.entries.filter { $0.level == .info && $0.message.description.contains("no email sent") }
            #expect(explained.count == (explains ? 1 : 0))
            #expect(explained.allSatisfy { $0.metadata["retry_after_s"]?.description == "60" && $0.metadata["email"]?.description == "a***@example.com" })
        }
    }

    /// A flood of refused requests must not become a flood of writes: only a window's first refusal is audited.
    @Test func onlyTheFirstRefusalOfAWindowIsAudited() async throws {
        let limits: [String: Any] = ["rateLimits.sendPerIP": Self.windows((2, 300)), "rateLimits.passwordPerIP": Self.windows((1, 300))]
        try await withApp(limits, testing: .live) { client, workspace, _ in
            for _ in 0..<2 { #expect(try await client.sendLink(to: "\(UUID().uuidString.prefix(8))@example.com").status == .ok) }
            for _ in 0..<20 { #expect(try await client.sendLink(to: "x@example.com").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER") }
            #expect(try await Self.signIn(client, "x@example.com", "wrong-pw").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            for _ in 0..<20 { #expect(try await Self.signIn(client, "x@example.com", "any-pw").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER") }
            let audited = try await workspace.openDatabase().read { db in
                try String.fetchAll(db, sql: "SELECT detail FROM audit_events WHERE kind = 'rate_limited' ORDER BY id")
            }
            #expect(audited == ["sendPerIP", "passwordPerIP"])
        }
    }
}
