import AsyncHTTPClient
import Foundation
import Latchkey
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real OpenID Connect provider for tests: PyPI's `oidc-provider-mock` as a child process on 127.0.0.1 (discovery,
/// code flow, JWKS; it signs ID tokens with RS256 and without `kid`). `scripts/test` installs it into the venv that
/// `LATCHKEY_PYTHON` points at.
struct OIDCProviderMock: Sendable {
    let port: Int
    /// Kept so that the provider's standard input stays open while the tests run.
    let process: ChildProcess
    var issuer: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// A client that sees the provider's redirects instead of following them, for the life of the test process.
    private static let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))

    /// Settings for a provider at this mock; tests change what they need.
    func provider(_ id: String = "oidc.mock", clientID: String = "latchkey-client") -> IdentityProviderSettings {
        IdentityProviderSettings(providerID: id, issuer: issuer, clientID: clientID, allowsInsecureIssuer: true, clockSkewSeconds: 0)
    }

    /// An ID token the mock signs for `subject` with `claims`, as the code flow gives it to `clientID`.
    func idToken(subject: String, claims: [String: Any] = [:], clientID: String = "latchkey-client", nonce: String? = nil) async throws -> String {
        var query = URLComponents()
        query.queryItems = [
            .init(name: "client_id", value: clientID), .init(name: "redirect_uri", value: "http://127.0.0.1/callback"),
            .init(name: "response_type", value: "code"), .init(name: "scope", value: "openid email profile"), .init(name: "state", value: "s"),
        ] + (nonce.map { [.init(name: "nonce", value: $0)] } ?? [])
        let redirect = try await authorize("\(issuer)/oauth2/authorize?\(query.percentEncodedQuery ?? "")", subject: subject, claims: claims)
        let code = try #require(URLComponents(string: redirect)?.queryItems?.first { $0.name == "code" }?.value)
        let client = Self.client
        var token = HTTPClientRequest(url: "\(issuer)/oauth2/token")
        token.method = .POST
        token.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        token.headers.add(name: "Authorization", value: "Basic " + Data("\(clientID):x".utf8).base64EncodedString())
        token.body = .bytes(ByteBuffer(string: "grant_type=authorization_code&code=\(code)&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback"))
        let answer = try await client.execute(token, timeout: .seconds(10))
        let body = try await answer.body.collect(upTo: 1 << 20)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        return try #require(json["id_token"] as? String)
    }

    /// Signs `subject`, with `claims`, in at the mock for `authorizationURL` (as a browser would, from a relying
    /// party's redirect), and returns where the mock sends the browser back.
    func authorize(_ authorizationURL: String, subject: String, claims: [String: Any] = [:]) async throws -> String {
        var user = HTTPClientRequest(url: "\(issuer)/users/\(subject)")
        user.method = .PUT
        user.headers.add(name: "Content-Type", value: "application/json")
        user.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: claims)))
        _ = try await Self.client.execute(user, timeout: .seconds(10))
        var authorize = HTTPClientRequest(url: authorizationURL)
        authorize.method = .POST
        authorize.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        authorize.body = .bytes(ByteBuffer(string: "sub=\(subject)"))
        let redirect = try await Self.client.execute(authorize, timeout: .seconds(10))
        #expect(redirect.status == .found)
        return try #require(redirect.headers.first(name: "Location"))
    }
}

/// Runs `body` with the test run's provider. One provider serves every test, so each test signs in subjects no other
/// test uses: the mock keeps one set of claims per subject, and tests that run at once would overwrite them. Starting
/// one per test, with the suites starting together, took the cores long enough that PostgreSQL stores missed their
/// opening deadline.
func withOIDCProviderMock<T>(_ body: (OIDCProviderMock) async throws -> T) async throws -> T {
    try await body(try await OIDCProviderMock.shared.value)
}

extension OIDCProviderMock {
    static let script = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support/oidc_provider.py")

    /// Started at first use; it stops when the test process ends and with it the script's standard input.
    static let shared = Task { () throws -> OIDCProviderMock in
        let port = try freeLoopbackPort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-oidc-provider-\(port).log")
        let process = try ChildProcess(
            [ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3", script.path, "--host", "127.0.0.1", "--port", "\(port)"],
            withInput: true, outputPath: log.path, errorPath: log.path)
        try await waitUntilListening(port: port, process: process, log: log)
        return OIDCProviderMock(port: port, process: process)
    }
}

/// Why a test server could not be started.
struct TestServerError: Error, CustomStringConvertible {
    let description: String
}

/// A port nothing listens on now, from the kernel.
func freeLoopbackPort() throws -> Int {
    let listener = try SilentListener()
    return listener.port
}

/// Polls `port` until the server there accepts connections.
private func waitUntilListening(port: Int, process: ChildProcess, log: URL) async throws {
    for _ in 0..<1_200 {
        if canConnect(port: port) { return }
        guard process.isRunning else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestServerError(description: "oidc-provider-mock exited (run scripts/bootstrap --test):\n\(output)")
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw TestServerError(description: "oidc-provider-mock did not listen within 60 seconds")
}

private func canConnect(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in.loopback(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

/// A socket listening on a loopback port that never accepts or answers: a provider that is up but silent.
final class SilentListener: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard socket >= 0, bound else {
            close(socket)
            throw TestServerError(description: "could not listen on 127.0.0.1")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}

extension sockaddr_in {
    fileprivate static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
