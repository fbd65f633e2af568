import AsyncHTTPClient
import Foundation
import NIOCore

/// POSTs a text to an SMS provider over the process's shared HTTP client (`ProviderHTTPClient.shared`: no redirects,
/// connections reused) with one deadline around the whole exchange, so a gateway that is down, slow or answers
/// nonsense costs a worker at most `deadlineSeconds` and comes back as a `TextDeliveryError` the outbox can judge.
struct GatewayHTTPClient: Sendable {
    /// What a gateway answered with a 2xx status.
    struct Answer: Sendable {
        let status: Int
        let body: Data
    }

    /// A provider's answer to one text is a few hundred bytes; anything past this is not one.
    static let maximumBodyBytes = 64 * 1024

    /// The gateway's name in failures (`webhook`, `twilio`).
    let name: String
    let deadlineSeconds: Int
    let client: HTTPClient

    init(name: String, deadlineSeconds: Int, client: HTTPClient = ProviderHTTPClient.shared) {
        self.name = name
        self.deadlineSeconds = deadlineSeconds
        self.client = client
    }

    /// POSTs `body` to `url`; a refusal's body goes to `errorCode` so the failure can name the provider's code.
    func post(
        _ url: URL, body: [UInt8], headers: [(String, String)], errorCode: @escaping @Sendable (Data) -> Int? = { _ in nil }
    ) async throws(TextDeliveryError) -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let (client, name, seconds, prepared) = (client, name, deadlineSeconds, request)
        let answer: Answer
        do {
            answer = try await withDeadline(seconds: seconds) {
                let response = try await client.execute(prepared, timeout: .seconds(Int64(seconds)))
                let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
                return Answer(status: Int(response.status.code), body: Data(buffer: body))
            }
        } catch {
            throw .unavailable(gateway: name, reason: describeTransportFailure(error))
        }
        switch answer.status {
        case 200..<300: return answer
        case 408, 429, 500...: throw .unavailable(gateway: name, reason: "HTTP \(answer.status)")
        case 400..<500: throw .refused(gateway: name, status: answer.status, code: errorCode(answer.body))
        default: throw .unavailable(gateway: name, reason: "HTTP \(answer.status)")
        }
    }
}
