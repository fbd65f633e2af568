import Foundation
import Hummingbird
import Logging

/// `GET /demo/`: the web demo (`examples/web/`), the whole email-link flow as a Firebase web app does it, served in
/// development mode only (production answers 404).
///
/// The files are read once at start-up into memory, by name, so a URL can only name one of them. The page learns
/// the API key from `/demo/config.json` (the first configured key in sorting order: API keys are not secrets) and the
/// enabled identity providers, which get a "Sign in with …" button each.
struct DemoController {
    /// One file of the demo.
    struct File: Sendable {
        let contentType: String
        let body: ByteBuffer
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
    ]

    /// Scripts and styles from the demo itself, requests to this server only, and a URL kept out of `Referer`
    /// headers, since the page's URL carries the code when it is opened from a link.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'"

    /// What `/demo/config.json` tells the page.
    private struct Settings: Encodable {
        struct Provider: Encodable {
            let providerId: String
            let displayName: String
        }

        let apiKey: String
        /// `appName`: the issuer an authenticator app shows beside the code, as in the emails and pages.
        let appName: String
        let providers: [Provider]
        /// Whether sign-in emails show a typed code (`emailLink.typedCode`), so the page offers to type one.
        let typedCode: Bool
    }

    /// File name → file.
    let files: [String: File]
    let configuration: ByteBuffer

    /// Reads the demo's files from `directory`; `nil` (and a log line) when it has none, so the rest still starts.
    init?(
        directory: String, apiKey: String, appName: String, providers: [IdentityProviderSettings], typedCode: Bool, logger: Logger
    ) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var files: [String: File] = [:]
        for name in names {
            guard let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()],
                let data = FileManager.default.contents(atPath: directory + "/" + name)
            else { continue }
            files[name] = File(contentType: type, body: ByteBuffer(bytes: data))
        }
        guard files["index.html"] != nil else {
            logger.info("Web demo not served: no index.html", metadata: ["directory": "\(directory)"])
            return nil
        }
        self.files = files
        let settings = Settings(
            apiKey: apiKey, appName: appName,
            providers: providers.filter(\.isEnabled).map { Settings.Provider(providerId: $0.providerID, displayName: $0.displayName ?? $0.providerID) },
            typedCode: typedCode)
        configuration = ByteBuffer(bytes: try JSONEncoder.api.encode(settings))
    }

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get("demo", use: index)
            .get("demo/config.json", use: config)
            .get("demo/{file}", use: file)
    }

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        try respond(with: "index.html")
    }

    @Sendable func config(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(status: .ok, headers: Self.headers(contentType: "application/json"), body: .init(byteBuffer: configuration))
    }

    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        try respond(with: context.parameters.get("file") ?? "")
    }

    private func respond(with name: String) throws -> Response {
        guard let file = files[name] else { throw APIError.notFound }
        return Response(status: .ok, headers: Self.headers(contentType: file.contentType), body: .init(byteBuffer: file.body))
    }

    private static func headers(contentType: String) -> HTTPFields {
        var headers = HTMLPage.privateHeaders
        headers[.contentType] = contentType
        headers[HTMLPage.contentSecurityPolicyName] = contentSecurityPolicy
        return headers
    }
}
