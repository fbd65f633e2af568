import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import NIOCore
import Testing

/// Requests that most tests make, so each test reads as a short story.
extension TestClientProtocol {
    @discardableResult
    func post(_ path: String, json: String, key: String? = TestWorkspace.apiKey, headers: HTTPFields = [:]) async throws -> TestResponse {
        let uri = key.map { "\(path)?key=\($0)" } ?? path
        var headers = headers
        headers[.contentType] = headers[.contentType] ?? "application/json"
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    @discardableResult
    func sendLink(
        to email: String = "alice@example.com", continueURL: String = "https://app.example.com/finish", headers: HTTPFields = [:],
        extra fields: String? = nil
    ) async throws -> TestResponse {
        let extra = fields.map { "," + $0 } ?? ""
        return try await post(
            "/v1/accounts:sendOobCode",
            json: #"{"requestType":"EMAIL_SIGNIN","email":"\#(email)","continueUrl":"\#(continueURL)","canHandleCodeInApp":true\#(extra)}"#,
            headers: headers)
    }

    func complete(email: String = "alice@example.com", code: String) async throws -> TestResponse {
        try await post("/v1/accounts:signInWithEmailLink", json: #"{"email":"\#(email)","oobCode":"\#(code)"}"#)
    }

    func refresh(_ token: String) async throws -> TestResponse {
        try await post("/v1/token", json: #"{"grantType":"refresh_token","refreshToken":"\#(token)"}"#)
    }

    /// The `kid`s the JWKS publishes, in its order.
    func publishedKeyIDs() async throws -> [String] {
        let jwks = try await execute(uri: "/.well-known/jwks.json", method: .get).json
        return try #require(jwks["keys"] as? [[String: Any]]).compactMap { $0["kid"] as? String }
    }
}

extension TestResponse {
    /// The decoded JSON body.
    var json: [String: Any] {
        get throws {
            let data = Data(body.readableBytesView)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// The `error.message` of an error envelope.
    var errorMessage: String? {
        ((try? json)?["error"] as? [String: Any])?["message"] as? String
    }

    var text: String { String(buffer: body) }
}

/// Reads sign-in emails the file transport wrote.
struct Mailbox {
    let directory: URL

    /// The messages so far, oldest first.
    func messages() -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
        return files.compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
    }

    /// The messages with header folding and quoted-printable soft breaks undone, so a sentence reads as one line.
    func readableMessages() -> [String] {
        messages().map { $0.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "=\r\n", with: "") }
    }

    /// Waits (bounded) until `count` messages exist.
    func waitForMessages(_ count: Int) async throws -> [String] {
        for _ in 0..<200 {
            let messages = messages()
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("expected \(count) emails in \(directory.path), found \(messages().count)")
        return messages()
    }

    /// The sign-in link in a message's text part, quoted-printable decoded.
    static func link(in message: String) throws -> URLComponents {
        let unfolded = quotedPrintableDecoded(message)
        // Sign-in links and those an app handles are on `/__/auth/action`, the other actions' on `/__/auth/confirm`.
        let start = try #require(unfolded.range(of: TestWorkspace.publicURL + "/__/auth/(action|confirm)\\?", options: .regularExpression))
        let end = unfolded[start.lowerBound...].firstIndex(where: \.isWhitespace) ?? unfolded.endIndex
        return try #require(URLComponents(string: String(unfolded[start.lowerBound..<end])))
    }

    /// `text` with quoted-printable's soft line breaks removed and its `=XX` escapes decoded (a line may begin with an
    /// escaped `.`, wherever the encoder happened to wrap).
    static func quotedPrintableDecoded(_ text: String) -> String {
        var bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)[...]
        var decoded: [UInt8] = []
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "="), bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                decoded.append(value)
                bytes.removeFirst(2)
            } else {
                decoded.append(byte)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The `oobCode` of the `index`-th message (waiting for it).
    func code(at index: Int = 0) async throws -> String {
        let messages = try await waitForMessages(index + 1)
        let link = try Self.link(in: messages[index])
        return try #require(link.queryItems?.first { $0.name == "oobCode" }?.value)
    }
}
