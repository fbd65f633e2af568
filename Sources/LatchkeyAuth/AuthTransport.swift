import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries one HTTP exchange with the Latchkey service. `URLSessionTransport` is the default; tests inject one that
/// calls the application in process.
public protocol AuthTransport: Sendable {
    /// Sends `request` and answers the response's status and body; throws only when no answer came.
    func send(_ request: URLRequest) async throws -> (status: Int, body: Data)
}

/// The default transport: a `URLSession`, with a time limit on every request.
public struct URLSessionTransport: AuthTransport {
    let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
        let (body, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (http.statusCode, body)
    }
}
