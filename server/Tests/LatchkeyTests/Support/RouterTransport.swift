import Foundation
import HTTPTypes
import HummingbirdTesting
import LatchkeyAuth
import NIOCore
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// LatchkeyAuth's transport in tests: each request goes to the application through Hummingbird's test client (in
/// process, or over a real socket with `.live`), and the paths called are recorded.
final class RouterTransport: AuthTransport {
    let client: any TestClientProtocol
    private let calls = Mutex<[String]>([])
    /// While closed, token renewals (`/v1/token`) wait for it to open: the test holds a renewal in flight.
    let renewals = Gate(isOpen: true)

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// An `Auth` on this transport, keeping its user in `persistence`; `serviceURL` only names the service (every
    /// request goes to the application).
    func auth(
        persistence: any UserPersistence = MemoryUserPersistence(), apiKey: String = TestWorkspace.apiKey,
        serviceURL: URL = URL(fileURLWithPath: "/")
    ) -> Auth {
        Auth(serviceURL: serviceURL, apiKey: apiKey, transport: self, persistence: persistence)
    }

    /// How many calls went to `path` (such as `/v1/token`).
    func count(_ path: String) -> Int {
        calls.withLock { $0.filter { $0 == path }.count }
    }

    func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
        let url = try requireValue(request.url)
        let method = try requireValue(request.httpMethod.flatMap(HTTPRequest.Method.init(_:)))
        var headers = HTTPFields()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        calls.withLock { $0.append(url.path) }
        if url.path == "/v1/token" { await renewals.wait() }
        let uri = url.path + (url.query.map { "?" + $0 } ?? "")
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: request.httpBody.map { ByteBuffer(bytes: $0) })
        return (Int(response.status.code), Data(response.body.readableBytesView))
    }

    private func requireValue<T>(_ value: T?) throws -> T {
        guard let value else { throw URLError(.badURL) }
        return value
    }
}
