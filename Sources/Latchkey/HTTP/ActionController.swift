import Foundation
import HTTPTypes
import Hummingbird

/// `GET /__/auth/action`: where the emailed link lands when no app opened it.
///
/// It never changes state (mail scanners open every link, often in a browser that runs scripts): it hands the
/// code to the web app at `continueUrl`, as Firebase's hosted page does, and the app completes the sign-in with
/// `accounts:signInWithEmailLink`. The query is never logged (see `RequestLoggingMiddleware`).
struct ActionController {
    let authorizedDomains: Set<String>

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(RouterPath(SignInLink.actionPath), use: land)
            .head(RouterPath(SignInLink.actionPath), use: land)
    }

    @Sendable func land(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard query.get("mode") == "signIn", let code = query.get("oobCode"), !code.isEmpty, code.utf8.count <= 256,
            let continueURL = query.get("continueUrl"), let host = ActionCodeSettings.host(ofContinueURL: continueURL),
            authorizedDomains.contains(host), var components = URLComponents(string: continueURL)
        else {
            return Self.page(status: .badRequest, "This sign-in link is incomplete or damaged. Request a new one from the app.")
        }
        // The web app reads these the way Firebase's `isSignInWithEmailLink` does.
        let handedOver = [
            URLQueryItem(name: "apiKey", value: query.get("apiKey") ?? ""), URLQueryItem(name: "oobCode", value: code),
            URLQueryItem(name: "mode", value: "signIn"), URLQueryItem(name: "lang", value: LanguageTag(query.get("lang") ?? "")?.value ?? "en"),
        ]
        components.queryItems = (components.queryItems ?? []) + handedOver
        guard let location = components.string else {
            return Self.page(status: .badRequest, "This sign-in link is incomplete or damaged. Request a new one from the app.")
        }
        var headers = Self.privateHeaders
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    /// The code must not linger in caches or travel on in a `Referer`.
    static let privateHeaders: HTTPFields = [.cacheControl: "no-store", HTTPField.Name("Referrer-Policy")!: "no-referrer"]

    /// A minimal page for links that cannot be handed over; it loads nothing from anywhere.
    static func page(status: HTTPResponse.Status, _ message: String) -> Response {
        var headers = privateHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; style-src 'unsafe-inline'"
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign-in link</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#18181b">
            <h1 style="font-size:1.25rem">Sign-in link</h1><p>\(message)</p></body></html>
            """
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
