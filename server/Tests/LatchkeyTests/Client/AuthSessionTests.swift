import Foundation
import HummingbirdTesting
import LatchkeyAuth
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// LatchkeyAuth's session: token renewal, persistence, sign-out and failures, against the real application in process.
@Suite(.timeLimit(.minutes(3))) struct AuthSessionTests {
    /// An ID token is renewed once it is within five minutes of its expiry, counted on the device from the token's
    /// lifetime: the server's tokens last 6 minutes (fresh), then 4 (stale at once, so every call renews).
    @Test(arguments: [(360, 0), (240, 2)]) func theTokenIsRenewedShortlyBeforeItsExpiry(_ lifetime: Int, _ renewals: Int) async throws {
        try await withApp(["tokens.idTokenLifetimeSeconds": lifetime], clock: FixedClock(Date())) { client, _, _ in
            let transport = RouterTransport(client)
            let user = try await transport.auth().createUser(withEmail: "jo@example.com", password: "jo's password").user
            _ = try await user.getIDToken()
            _ = try await user.getIDToken()
            #expect(transport.count("/v1/token") == renewals)
            _ = try await user.getIDToken(forcingRefresh: true)
            #expect(transport.count("/v1/token") == renewals + 1)
        }
    }

    /// A renewal overtaken by a re-authentication is dropped: the newer session's tokens stay, and are the ones stored.
    @Test func anOvertakenRenewalNeverReplacesNewerTokens() async throws {
        try await withApp { client, workspace, _ in
            let (transport, file, auth) = Self.signedInOnAFile(client, workspace)
            let credential = EmailAuthProvider.credential(withEmail: "ray@example.com", password: "ray's password")
            let user = try await auth.createUser(withEmail: "ray@example.com", password: "ray's password").user
            let renewing = try await Self.heldRenewal(of: user, transport)
            try await user.reauthenticate(with: credential)
            let stored = try Self.storedRefreshToken(file)
            transport.renewals.open()
            let token = try await renewing.value
            #expect(try Self.storedRefreshToken(file) == stored)
            #expect(try await user.getIDToken() == token)
            // The stored session is the live one: a new launch renews it.
            let relaunched = try #require(transport.auth(persistence: FileUserPersistence(url: file)).currentUser)
            #expect(try await relaunched.getIDToken(forcingRefresh: true).isEmpty == false)
        }
    }

    /// Signing out while a renewal is in flight: the renewal ends, and the user is not stored again.
    @Test func signingOutDuringARenewalForgetsTheUser() async throws {
        try await withApp { client, workspace, _ in
            let (transport, file, auth) = Self.signedInOnAFile(client, workspace)
            let user = try await auth.createUser(withEmail: "sam@example.com", password: "sam's password").user
            let renewing = try await Self.heldRenewal(of: user, transport)
            try auth.signOut()
            transport.renewals.open()
            _ = try await renewing.value
            #expect(auth.currentUser == nil && !FileManager.default.fileExists(atPath: file.path))
        }
    }

    /// A transport to the app and an `Auth` that keeps its user in a file of the workspace.
    static func signedInOnAFile(_ client: any TestClientProtocol, _ workspace: TestWorkspace) -> (RouterTransport, URL, Auth) {
        let transport = RouterTransport(client)
        let file = workspace.directory.appendingPathComponent("client/session.json")
        return (transport, file, transport.auth(persistence: FileUserPersistence(url: file)))
    }

    /// A forced renewal of `user`'s tokens, held at the transport until the test opens its gate.
    static func heldRenewal(of user: User, _ transport: RouterTransport) async throws -> Task<String, any Error> {
        transport.renewals.close()
        let renewing = Task { try await user.getIDToken(forcingRefresh: true) }
        while transport.renewals.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        return renewing
    }

    static func storedRefreshToken(_ file: URL) throws -> String {
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        return try #require((stored["tokens"] as? [String: Any])?["refreshToken"] as? String)
    }

    /// Many tasks asking at once share one renewal: a refresh token used twice would end the session as stolen.
    @Test func concurrentCallersShareOneRefresh() async throws {
        try await withApp(testing: .live) { client, _, _ in
            let transport = RouterTransport(client)
            let user = try await transport.auth().createUser(withEmail: "kim@example.com", password: "kim's password").user
            // The first renewal is held until all eight callers have asked, so every one of them finds it under way.
            transport.renewals.close()
            let asked = Count()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        asked.add()
                        return try await user.getIDToken(forcingRefresh: true)
                    }
                }
                while asked.value < 8 || transport.renewals.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(50))
                transport.renewals.open()
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
            let secret = try Self.storedRefreshToken(file)
            var dumped = ""
            dump(user, to: &dumped)
            let idToken = try await user.getIDTokenResult()
            dump(idToken, to: &dumped)
            #expect(!"\(user)".contains(secret) && !String(reflecting: user).contains(secret) && !dumped.contains(secret))
            #expect(!"\(idToken)".contains(idToken.token) && !dumped.contains(idToken.token))

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
            let stream = auth.authStateChanges
            let changes = Task { await stream.prefix(3).reduce(into: [String?]()) { $0.append($1?.uid) } }
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

/// A count tasks add to.
private final class Count: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
