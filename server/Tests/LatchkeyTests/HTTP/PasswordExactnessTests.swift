import Crypto
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

    /// An account whose hash is `hash`.
    static func withHash(_ hash: String, _ workspace: TestWorkspace, _ client: any TestClientProtocol) async throws {
        #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"placeholder"}"#).status == .ok)
        try await workspace.openDatabase().write { try $0.execute(sql: "UPDATE accounts SET password_hash = ?", arguments: [hash]) }
    }

    /// A plain bcrypt hash of `password` itself, as Latchkey 0.7 made them and other systems make them.
    static func withPlainHash(of password: String, _ workspace: TestWorkspace, _ client: any TestClientProtocol) async throws {
        try await withHash(Bcrypt.hash(password, cost: 4), workspace, client)
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

    /// A password that fits plain bcrypt is stored as plain bcrypt, which exports to Firebase as it is.
    @Test func shortPasswordsAreHashedPlainly() async throws {
        try await withApp { client, workspace, _ in
            #expect(try await signUp(client, password: "hunter22").status == .ok)
            let stored = try #require(try await Self.storedHash(workspace))
            #expect(stored.hasPrefix("$2b$04$") && Bcrypt.verify("hunter22", hash: stored))
        }
    }

    /// A pre-hash of a password that fits plain bcrypt (how Latchkey hashed every password for a while) opens with its
    /// exact password and is replaced by a plain hash on that sign-in; so is a plain hash of a lower cost.
    @Test func aPrehashOrACheaperHashIsReplacedOnSignIn() async throws {
        let prehash = "sha256-bcrypt:" + Bcrypt.hash(Data(SHA256.hash(data: Data("hunter22".utf8))).base64EncodedString(), cost: 4)
        for (old, cost) in [(prehash, 4), (Bcrypt.hash("hunter22", cost: 4), 5)] {
            try await withApp(["security.passwordHashCost": cost]) { client, workspace, _ in
                try await Self.withHash(old, workspace, client)
                #expect(try await signIn(client, password: "hunter2").errorMessage == "INVALID_LOGIN_CREDENTIALS")
                #expect(try await Self.storedHash(workspace) == old)
                #expect(try await signIn(client, password: "hunter22").status == .ok)
                let replaced = try #require(try await Self.storedHash(workspace))
                #expect(replaced.hasPrefix("$2b$0\(cost)$") && Bcrypt.verify("hunter22", hash: replaced))
                #expect(try await signIn(client, password: "hunter22").status == .ok)
                #expect(try await Self.storedHash(workspace) == replaced)
            }
        }
    }

    /// A password bcrypt would cut (at a NUL, past 72 bytes) never opens a plain hash of what it would be cut to.
    @Test(arguments: [
        ("\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", #"\u0000"#),
        ("abcdef", #"abcdef\u0000secret"#),
        (String(repeating: "b", count: 72), String(repeating: "b", count: 72) + "-anything"),
    ])
    func truncationsNeverOpenAPlainHash(_ set: String, _ attempt: String) async throws {
        try await withApp { client, workspace, _ in
            try await Self.withPlainHash(of: set, workspace, client)
            #expect(try await signIn(client, password: attempt).errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
    }
}
