import AsyncHTTPClient
import Foundation
import LatchkeyDomain
import NIOCore
import NIOPosix

/// Calls identity providers over HTTP (discovery, keys, code exchange). Every call has a deadline and a size limit,
/// redirects are not followed (a provider's endpoints are the ones its discovery document names), and whatever goes
/// wrong comes back as `ProviderFailure.invalidResponse`: a provider that is down or answers nonsense never makes a 500
/// or a hung request.
package struct ProviderHTTPClient: Sendable {
    /// An answer with a 2xx status (or 4xx, when the call accepts them).
    struct Answer: Sendable {
        let status: Int
        let body: Data
        /// `Cache-Control: max-age`, when the provider gave one.
        let maxAge: TimeInterval?
    }

    /// One client for the process, so connections to a provider are reused.
    static let shared = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(10))))
    /// Discovery documents, key sets and token answers are a few kilobytes; anything past this is not one.
    static let maximumBodyBytes = 512 * 1024

    let client: HTTPClient
    let timeout: TimeAmount

    package init(timeout: TimeAmount = .seconds(10)) {
        client = Self.shared
        self.timeout = timeout
    }

    /// GETs `url`, naming `what` in failures ("discovery", "keys").
    func get(_ url: URL, _ what: String) async throws(ProviderFailure) -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        return try await send(request, what)
    }

    /// POSTs `form` (`application/x-www-form-urlencoded`) to `url` with `headers`; a 4xx answer's body comes back too,
    /// because OAuth token endpoints put their `error` there.
    func post(_ url: URL, form: [(String, String)], headers: [(String, String)] = [], _ what: String) async throws(ProviderFailure) -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: QueryString.encode(form)))
        return try await send(request, what, acceptingClientErrors: true)
    }

    private func send(_ request: HTTPClientRequest, _ what: String, acceptingClientErrors: Bool = false) async throws(ProviderFailure) -> Answer {
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
            let status = Int(response.status.code)
            guard (200..<300).contains(status) || (acceptingClientErrors && (400..<500).contains(status)) else {
                throw ProviderFailure.invalidResponse("\(what) answered HTTP \(status)")
            }
            return Answer(status: status, body: Data(buffer: body), maxAge: response.headers.first(name: "Cache-Control").flatMap(Self.maxAge))
        } catch let failure as ProviderFailure {
            throw failure
        } catch {
            throw ProviderFailure.invalidResponse("\(what) failed: \(describeTransportFailure(error))")
        }
    }

    /// `max-age=N` of a `Cache-Control` value.
    static func maxAge(_ value: String) -> TimeInterval? {
        for directive in value.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 { return TimeInterval(seconds) }
        }
        return nil
    }
}
