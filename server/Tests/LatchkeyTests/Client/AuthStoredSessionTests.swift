import Foundation
import HummingbirdTesting
import LatchkeyAuth
import Testing

/// LatchkeyAuth's stored session belongs to one service: it is adopted only by an `Auth` for the same scheme, host,
/// port, path and API key, and only from a file that is its owner's alone (issue #31, point 13).
@Suite(.timeLimit(.minutes(1))) struct AuthStoredSessionTests {
    static let service = URL(string: "https://auth.example.com")

    /// A session made with one service is not adopted by an `Auth` for another, and its refresh token is never sent;
    /// the same service, written with its port or a trailing slash, adopts it.
    @Test(arguments: ["http://auth.example.com", "https://auth.example.com:8443", "https://other.example.com", "https://auth.example.com/v2"])
    func aSessionOfAnotherServiceIsNotAdopted(_ other: String) async throws {
        try await withApp { client, workspace, _ in
            let (transport, file) = (RouterTransport(client), Self.file(in: workspace))
            let service = try #require(Self.service)
            _ = try await transport.auth(persistence: FileUserPersistence(url: file), serviceURL: service)
                .createUser(withEmail: "ada@example.com", password: "ada's password")
            let elsewhere = transport.auth(persistence: FileUserPersistence(url: file), serviceURL: try #require(URL(string: other)))
            #expect(elsewhere.currentUser == nil)
            let again = try #require(URL(string: "https://auth.example.com:443/"))
            #expect(transport.auth(persistence: FileUserPersistence(url: file), serviceURL: again).currentUser != nil)
            #expect(transport.count("/v1/token") == 0)
        }
    }

    /// Another API key is another project as far as the client knows: its `Auth` does not adopt the session.
    @Test func aSessionMadeWithAnotherAPIKeyIsNotAdopted() async throws {
        try await withApp { client, workspace, _ in
            let (transport, file) = (RouterTransport(client), Self.file(in: workspace))
            _ = try await transport.auth(persistence: FileUserPersistence(url: file)).signInAnonymously()
            #expect(transport.auth(persistence: FileUserPersistence(url: file), apiKey: "another-key").currentUser == nil)
        }
    }

    /// A record stored without its service (as earlier versions kept it) says nowhere its refresh token may go: it is
    /// not adopted.
    @Test func aRecordWithoutItsServiceIsNotAdopted() async throws {
        try await withApp { client, workspace, _ in
            let (transport, file) = (RouterTransport(client), Self.file(in: workspace))
            _ = try await transport.auth(persistence: FileUserPersistence(url: file)).signInAnonymously()
            var stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            #expect(stored.removeValue(forKey: "service") != nil)
            try FileUserPersistence(url: file).save(try JSONSerialization.data(withJSONObject: stored))
            #expect(transport.auth(persistence: FileUserPersistence(url: file)).currentUser == nil)
        }
    }

    /// A session file its group or others may read or write is refused, with the reason; the user counts as signed
    /// out, and a new sign-in writes the file afresh, owner-only.
    @Test(arguments: [0o644, 0o640, 0o620, 0o602]) func aFileOpenToOthersIsRefused(_ mode: Int) async throws {
        try await withApp { client, workspace, _ in
            let (transport, file) = (RouterTransport(client), Self.file(in: workspace))
            _ = try await transport.auth(persistence: FileUserPersistence(url: file)).signInAnonymously()
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
            let error = #expect(throws: AuthError.self) { try FileUserPersistence(url: file).load() }
            #expect(error?.code == .keychainError && error?.message?.contains("open to other users") == true)
            let relaunched = transport.auth(persistence: FileUserPersistence(url: file))
            #expect(relaunched.currentUser == nil)
            _ = try await relaunched.signInAnonymously()
            #expect(try FileUserPersistence(url: file).load() != nil)
        }
    }

    /// A session file another user owns is refused: it may have been planted.
    @Test(.enabled(if: geteuid() == 0, "only root can give a file away")) func aFileOfAnotherUserIsRefused() async throws {
        try await withApp { client, workspace, _ in
            let (transport, file) = (RouterTransport(client), Self.file(in: workspace))
            _ = try await transport.auth(persistence: FileUserPersistence(url: file)).signInAnonymously()
            #expect(chown(file.path, 65534, 65534) == 0)
            let error = #expect(throws: AuthError.self) { try FileUserPersistence(url: file).load() }
            #expect(error?.code == .keychainError && error?.message?.contains("belongs to another user") == true)
            #expect(transport.auth(persistence: FileUserPersistence(url: file)).currentUser == nil)
        }
    }

    /// The default file is one per scheme, host and port.
    @Test func theDefaultFileIsOnePerService() throws {
        let names = try ["http://a.example:8080", "https://a.example:8080", "https://a.example", "https://b.example", "https://a.example:443/x"]
            .map { FileUserPersistence(service: try #require(URL(string: $0))).url.lastPathComponent }
        #expect(names == ["http-a.example-8080.json", "https-a.example-8080.json", "https-a.example-443.json", "https-b.example-443.json", "https-a.example-443.json"])
    }

    static func file(in workspace: TestWorkspace) -> URL {
        workspace.directory.appendingPathComponent("client/session.json")
    }
}
