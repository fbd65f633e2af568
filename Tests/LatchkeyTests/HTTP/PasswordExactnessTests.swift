import Foundation
import GRDB
import HummingbirdBcrypt
import HummingbirdTesting
import Latchkey
import Testing

/// bcrypt stops at a NUL byte and reads at most 72 bytes; sign-in must still compare exactly what was set.
@Suite struct PasswordExactnessTests {
    func signUp(_ client: any TestClientProtocol, password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"\#(password)"}"#)
    }

    func signIn(_ client: any TestClientProtocol, password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"alice@example.com","password":"\#(password)"}"#)
    }

    static func storedHash(_ workspace: TestWorkspace) async throws -> String? {
        try await workspace.openDatabase().read { try String.fetchOne($0, sql: "SELECT password_hash FROM accounts") }
    }

    /// An account whose hash was made the way Latchkey 0.7 made them: bcrypt of the password itself.
    static func withOldHash(of password: String, _ workspace: TestWorkspace, _ client: any TestClientProtocol) async throws {
        #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"placeholder"}"#).status == .ok)
        let old = Bcrypt.hash(password, cost: 4)
        try await workspace.openDatabase().write { try $0.execute(sql: "UPDATE accounts SET password_hash = ?", arguments: [old]) }
    }

    @Test(arguments: [#"\u0000\u0000\u0000\u0000\u0000\u0000"#, #"abcdef\u0000secret"#, #"line\nbreak"#, #"bell\u0007ring"#, #"c1\u0085next"#])
    func newPasswordsWithControlCharactersAreRefused(_ password: String) async throws {
        try await withApp { client, workspace, _ in
            let response = try await signUp(client, password: password)
            #expect(response.errorMessage == "WEAK_PASSWORD : Password must not contain control characters")
            #expect(try await Self.storedHash(workspace) == nil)
        }
    }

    @Test func longPasswordsCountEveryByte() async throws {
        let long = String(repeating: "a", count: 72) + "-and-the-rest"
        try await withApp { client, workspace, _ in
            #expect(try await signUp(client, password: long).status == .ok)
            #expect(try await signIn(client, password: String(long.prefix(72))).errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await signIn(client, password: long + "x").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await signIn(client, password: long).status == .ok)
            let stored = try #require(try await Self.storedHash(workspace))
            #expect(stored.hasPrefix("sha256-bcrypt:$2") && !stored.contains("aaaa"))
        }
    }

    /// Hashes from before keep working for what they can compare exactly, and are replaced on that sign-in.
    @Test func anOldHashOpensWithItsExactPasswordAndIsReplaced() async throws {
        try await withApp { client, workspace, _ in
            try await Self.withOldHash(of: "hunter22", workspace, client)
            #expect(try await signIn(client, password: "hunter2").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await signIn(client, password: "hunter22").status == .ok)
            #expect(try await Self.storedHash(workspace)?.hasPrefix("sha256-bcrypt:") == true)
            #expect(try await signIn(client, password: "hunter22").status == .ok)
        }
    }

    /// A password bcrypt would cut (at a NUL, past 72 bytes) no longer opens an old hash of what it would be cut to.
    @Test(arguments: [
        ("\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", #"\u0000"#),
        ("abcdef", #"abcdef\u0000secret"#),
        (String(repeating: "b", count: 72), String(repeating: "b", count: 72) + "-anything"),
    ])
    func truncationsNoLongerOpenAnOldHash(_ set: String, _ attempt: String) async throws {
        try await withApp { client, workspace, _ in
            try await Self.withOldHash(of: set, workspace, client)
            #expect(try await signIn(client, password: attempt).errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
    }
}
