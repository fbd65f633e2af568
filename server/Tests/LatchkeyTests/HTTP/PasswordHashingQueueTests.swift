import Foundation
import GRDB
import HummingbirdBcrypt
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Logging
import Synchronization
import Testing

/// Password hashing waits in a bounded line: one account's concurrent attempts cannot hold other sign-ins behind them,
/// and a saturated server answers a retryable 503 in the envelope, having changed nothing.
@Suite struct PasswordHashingQueueTests {
    func signIn(_ client: any TestClientProtocol, _ email: String, _ password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    func signUp(_ client: any TestClientProtocol, _ email: String, _ password: String = "placeholder") async throws -> TestResponse {
        try await client.post("/v1/accounts:signUp", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    /// Sixteen concurrent wrong passwords for one imported account with the costliest hash an import takes (bcrypt cost
    /// 12, about 0.4 s a check in a debug build) and another user's sign-in right after them: the address gets its share
    /// of checks (`security.passwordChecksPerAddress`, 2 by default) and the rest are refused at once, so the other
    /// sign-in takes the next thread rather than wait for all sixteen, as it did when every check queued on the pool.
    /// Orderings, not times, are compared, so a slow machine changes nothing.
    @Test func oneAccountsAttemptsDoNotHoldAnotherSignIn() async throws {
        try await withApp { client, workspace, _ in
            #expect(try await signUp(client, "target@example.com").status == .ok)
            #expect(try await signUp(client, "bystander@example.com", "bystander password").status == .ok)
            let configuration = try await workspace.configuration()
            let opened = try await makeStore(configuration, logger: Logger(label: "test"))
            defer { withExtendedLifetime(opened) {} }
            let hasher = PasswordHasher(cost: 4, secret: try ServerSecret.load(configuration.security, creatingIfMissing: false))
            let costly = try ImportedPasswordHash(
                algorithm: .bcrypt, parameters: .init(), hash: Data(Bcrypt.hash("right password", cost: 12).utf8), salt: Data())
            let imported = try hasher.stored(costly)
            let target = try #require(EmailAddress("target@example.com"))
            try await opened.store.write { transaction in
                guard var account = try await transaction.account(email: target) else { return }
                account.passwordHash = imported
                try await transaction.update(account)
            }

            let answers = Outcomes()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let answer = try await signIn(client, "target@example.com", "wrong password")
                        let outcome =
                            answer.errorMessage == "INVALID_LOGIN_CREDENTIALS" ? "checked"
                            : answer.status == .serviceUnavailable ? "refused" : "\(answer.status) \(answer.text)"
                        answers.append(outcome)
                    }
                }
                // Once one attempt is answered, the others have reached the line (or been refused).
                var polls = 0
                while answers.all.isEmpty && polls < 6000 {
                    try await Task.sleep(for: .milliseconds(5))
                    polls += 1
                }
                group.addTask {
                    let answer = try await signIn(client, "bystander@example.com", "bystander password")
                    answers.append(answer.status == .ok ? "bystander" : "bystander \(answer.status) \(answer.text)")
                }
                try await group.waitForAll()
            }
            let order = answers.all
            let bystander = try #require(order.firstIndex(of: "bystander"), "\(order)")
            let checkedBefore = order[..<bystander].filter { $0 == "checked" }.count
            // At most the address's share runs ahead (a slow start may let one or two more in); before, all sixteen did.
            #expect(checkedBefore <= 4, "\(order)")
            #expect(order.contains("refused") && order.allSatisfy { ["checked", "refused", "bystander"].contains($0) }, "\(order)")
            #expect(try await signIn(client, "target@example.com", "right password").status == .ok)
        }
    }

    /// With one thread and no room to wait (or no time to), concurrent sign-ups that each need a slow hash are refused
    /// with Google's 503 `UNAVAILABLE` and `Retry-After`; no refused address is registered; the line recovers.
    @Test(arguments: [(0, 3000), (16, 1)]) func aSaturatedLineRefusesWithA503(_ queueLength: Int, _ waitMilliseconds: Int) async throws {
        let settings: [String: Any] = [
            "security.passwordHashCost": 12, "security.passwordHashConcurrency": 1, "security.passwordHashQueueLength": queueLength,
            "security.passwordHashWaitMilliseconds": waitMilliseconds,
        ]
        try await withApp(settings) { client, workspace, _ in
            let answers = try await withThrowingTaskGroup(of: (String, TestResponse).self) { group in
                for index in 0..<6 {
                    group.addTask { ("user\(index)@example.com", try await signUp(client, "user\(index)@example.com")) }
                }
                return try await group.reduce(into: [(String, TestResponse)]()) { $0.append($1) }
            }
            let refused = answers.filter { $0.1.status == .serviceUnavailable }
            #expect(!refused.isEmpty && answers.allSatisfy { [.ok, .serviceUnavailable].contains($0.1.status) })
            for (_, answer) in refused {
                let error = try #require(try answer.json["error"] as? [String: Any])
                #expect(error["code"] as? Int == 503 && error["status"] as? String == "UNAVAILABLE")
                #expect((error["message"] as? String)?.hasPrefix("The service is currently unavailable: too many password checks") == true)
                #expect(answer.headers[.retryAfter] == "1")
            }
            let registered = try await workspace.openDatabase().read { try String.fetchAll($0, sql: "SELECT email FROM accounts") }
            #expect(Set(registered) == Set(answers.filter { $0.1.status == .ok }.map(\.0)))
            #expect(try await signUp(client, "later@example.com").status == .ok)
        }
    }
}

/// Answers in the order they arrived, from concurrent tasks.
private final class Outcomes: Sendable {
    private let list = Mutex<[String]>([])

    var all: [String] { list.withLock { $0 } }

    func append(_ outcome: String) {
        list.withLock { $0.append(outcome) }
    }
}
