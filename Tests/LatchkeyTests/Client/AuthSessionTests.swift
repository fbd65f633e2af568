import Foundation
import LatchkeyAuth
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// LatchkeyAuth's session: token renewal, persistence, sign-out and failures, against the real application in process.
@Suite struct AuthSessionTests {
    /// An ID token is renewed only when it is within five minutes of its expiry: the server's clock is set so that its
    /// tokens expire a minute from now.
    @Test func theTokenIsRenewedShortlyBeforeItsExpiry() async throws {
        try await withApp(clock: FixedClock(Date().addingTimeInterval(-3600 + 60))) { client, _, _ in
            let transport = RouterTransport(client)
            let user = try await transport.auth().createUser(withEmail: "jo@example.com", password: "jo's password").user
            let first = try await user.getIDTokenResult()
            #expect(transport.count("/v1/token") == 1)  // stale at once: it expires in a minute
            #expect(first.expirationDate.timeIntervalSinceNow < 120)
        }
        try await withApp(clock: FixedClock(Date())) { client, _, _ in
            let transport = RouterTransport(client)
            let user = try await transport.auth().createUser(withEmail: "jo@example.com", password: "jo's password").user
            let token = try await user.getIDToken()
            #expect(try await user.getIDToken() == token && transport.count("/v1/token") == 0)
            #expect(try await user.getIDToken(forcingRefresh: true) != token && transport.count("/v1/token") == 1)
        }
    }

    /// Many tasks asking at once share one renewal: a refresh token used twice would end the session as stolen.
    @Test func concurrentCallersShareOneRefresh() async throws {
        try await withApp(testing: .live) { client, _, _ in
            let transport = RouterTransport(client)
            let user = try await transport.auth().createUser(withEmail: "kim@example.com", password: "kim's password").user
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await user.getIDToken(forcingRefresh: true) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1 && transport.count("/v1/token") == 1)
            // The session is intact: the refresh token was used once.
            _ = try await user.getIDToken(forcingRefresh: true)
            #expect(transport.count("/v1/token") == 2)
        }
    }

    /// A new `Auth` on the same file finds the user signed in, with a working session; the file is the owner's only
    /// and nothing shows the refresh token; signing out forgets it.
    @Test func theUserPersistsAcrossLaunches() async throws {
        try await withApp { client, workspace, _ in
            let transport = RouterTransport(client)
            let file = workspace.directory.appendingPathComponent("client/session.json")
            let auth = transport.auth(persistence: FileUserPersistence(url: file))
            let user = try await auth.createUser(withEmail: "lee@example.com", password: "lee's password").user
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let stored = try String(contentsOf: file, encoding: .utf8)
            let refreshToken = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any])
            let tokens = try #require(refreshToken["tokens"] as? [String: Any])
            let secret = try #require(tokens["refreshToken"] as? String)
            #expect(!"\(user)".contains(secret) && !String(reflecting: user).contains(secret))

            let relaunched = transport.auth(persistence: FileUserPersistence(url: file))
            let restored = try #require(relaunched.currentUser)
            #expect(restored.uid == user.uid && restored.email == "lee@example.com")
            #expect(try await restored.getIDToken(forcingRefresh: true).isEmpty == false)

            try relaunched.signOut()
            #expect(relaunched.currentUser == nil && !FileManager.default.fileExists(atPath: file.path))
            #expect(transport.auth(persistence: FileUserPersistence(url: file)).currentUser == nil)
        }
    }

    /// `authStateChanges` tells the current user at once, then each sign-in and sign-out.
    @Test func authStateChanges() async throws {
        try await withApp { client, _, _ in
            let auth = RouterTransport(client).auth()
            let changes = Task { await auth.authStateChanges.prefix(3).reduce(into: [String?]()) { $0.append($1?.uid) } }
            try await Task.sleep(for: .milliseconds(50))
            let user = try await auth.signInAnonymously().user
            try auth.signOut()
            #expect(await changes.value == [nil, user.uid, nil])
        }
    }

    /// A disabled account's session ends on its next renewal: the user is signed out.
    @Test func aDisabledUserIsSignedOut() async throws {
        try await withApp { client, _, _ in
            let auth = RouterTransport(client).auth()
            let user = try await auth.createUser(withEmail: "max@example.com", password: "max's password").user
            let admin = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(user.uid)","disableUser":true}"#, key: nil,
                headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
            #expect(admin.status == .ok)
            let error = await #expect(throws: AuthError.self) { try await user.getIDToken(forcingRefresh: true) }
            #expect(error?.code == .userDisabled && auth.currentUser == nil)
        }
    }

    @Test func aWrongAPIKeyAndAServiceThatIsDown() async throws {
        try await withApp { client, _, _ in
            let wrongKey = RouterTransport(client).auth(apiKey: "not-a-key")
            let refused = await #expect(throws: AuthError.self) { try await wrongKey.signInAnonymously() }
            #expect(refused?.code == .invalidAPIKey)
        }
        // Nothing listens on port 9 of the loopback.
        let down = Auth(serviceURL: try #require(URL(string: "http://127.0.0.1:9")), apiKey: "k", persistence: MemoryUserPersistence())
        let error = await #expect(throws: AuthError.self) { try await down.signInAnonymously() }
        #expect(error?.code == .networkError && down.currentUser == nil)
    }
}
