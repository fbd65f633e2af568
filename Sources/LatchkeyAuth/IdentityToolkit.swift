import Foundation
import LatchkeyWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP side of the library: one JSON POST per call to Latchkey's Identity Toolkit API, its refusals turned into
/// `AuthError`.
struct IdentityToolkit: Sendable {
    let serviceURL: URL
    let apiKey: String
    let transport: any AuthTransport
    /// How long a call may wait for data before it fails with `networkError`.
    static let timeout: TimeInterval = 30

    /// POSTs `body` as JSON to `path` (such as `v1/accounts:signUp`) and decodes the answer.
    func call<Response: Decodable>(_ path: String, _ body: some Encodable, as: Response.Type = Response.self) async throws -> Response {
        var request = URLRequest(url: serviceURL.appendingPathComponent(path), timeoutInterval: Self.timeout)
        request.httpMethod = "POST"
        // The key travels in a header rather than the URL, so that no proxy logs it beside the path.
        request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(body)
        let status: Int
        let data: Data
        do {
            (status, data) = try await transport.send(request)
        } catch let error where error is CancellationError || (error as? URLError)?.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        } catch {
            throw AuthError(.networkError, message: String(describing: error))
        }
        guard (200..<300).contains(status) else { throw AuthError(refusal: data, status: status) }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw AuthError(.internalError, message: "the service's answer to \(path) could not be read: \(error)")
        }
    }
}
