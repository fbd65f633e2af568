import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// `/__/auth/handler` (and `/emulator/auth/handler`, where SDKs in emulator mode look): the hosted page that signs in
/// with a provider for the web, iOS and Android SDKs (spec §3.4).
///
/// 1. The SDK opens it with `apiKey`, `providerId` and where the answer goes (`redirectUrl` for the web, `ibi` with
///    `clientId` or `appId` for iOS, `apn` for Android): it starts a sign-in as `createAuthUri` does, with itself as
///    redirect URI, and sends the browser to the provider.
/// 2. The provider sends the browser back with `state` and a code (or, in the implicit flow, an ID token in the
///    fragment, which only a script sees: the page posts it back). The page finds the sign-in without using it up and
///    hands its own URL with the provider's answer (`link`) to the app, which finishes with `signInWithIdp`.
///
/// Its pages run no inline script, load nothing from elsewhere and send no referrer; the one script relays a fragment.
/// A sign-in it started is handed over only in the browser that started it (a `SameSite=Lax` cookie derived from the
/// state): someone else's provider answer, opened or posted in a victim's browser, signs the victim in nowhere. And a
/// web page's hand-off finishes only with the `eventId` the page kept when it started (only its hash is handed over):
/// an attacker's hand-off, sent to a victim's page, finds no matching value there.
struct ProviderHandlerController {
    let authorization: ProviderAuthorization
    let secret: ServerSecret
    let apiKeys: Set<String>
    let quota: APIKeyQuota
    let apps: AppsConfiguration
    let authorizedDomains: Set<String>
    let pages: PageRenderer
    let appName: String
    let publicURL: URL

    static let paths = ["__/auth/handler", "emulator/auth/handler"]

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        for path in Self.paths {
            routes.get(RouterPath(path), use: handle)
            routes.post(RouterPath(path), use: relay)
            routes.get(RouterPath(path + ".js"), use: script)
        }
        return routes
    }

    @Sendable func handle(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let language = Self.language(request)
        if let state = query.get("state") {
            return try await handOver(state: state, answer: query.map { (String($0.key), String($0.value)) }, inFragment: false, request, language)
        }
        guard query.get("providerId") != nil else { return page(.continuing, status: .ok, language: language) }
        return try await start(request, context: context, language: language)
    }

    /// The implicit flow's answer, posted by the page's script from the fragment.
    @Sendable func relay(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 32 * 1024)
        guard let answer = QueryString.decode(String(buffer: body)), let state = answer.first(where: { $0.name == "state" })?.value
        else { return page(.expired, status: .gone, language: Self.language(request)) }
        return try await handOver(state: state, answer: answer, inFragment: true, request, Self.language(request))
    }

    @Sendable func script(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTMLPage.privateHeaders
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.relayScript)))
    }

    private func start(_ request: Request, context: AppRequestContext, language: LanguageTag) async throws -> Response {
        let query = request.uri.queryParameters
        guard let key = query.get("apiKey"), apiKeys.contains(key), let providerID = query.get("providerId")?.lowercased(),
            let handoff = handoff(query)
        else { return page(.damaged, status: .badRequest, language: language) }
        try quota.admit(key)
        // A web page's sign-in is named by the eventId it keeps: its session id is that value's hash (`ProviderSession`).
        let sessionID = if case .web = handoff { Self.eventID(query).map(SHA256.hex) } else { query.get("sessionId") }
        var start = ProviderAuthorization.Start(providerID: providerID, redirectURI: ownURL(request), sessionID: sessionID)
        start.scopes = ProviderAuthorization.scopes(query.get("scopes"))
        start.customParameters = query.get("customParameters").flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
        start.handoff = handoff.json
        switch try await authorization.start(start) {
        case .accepted(let started):
            context.logger.debug("Provider sign-in started by the handler page", metadata: ["provider": "\(providerID)"])
            var response = redirect(to: started.authURI)
            response.setCookie(binding(state: started.state, path: request.uri.path, maxAge: authorization.providers.file.authSessionTTLSeconds))
            return response
        case .refused(let refusal):
            context.logger.debug("Provider sign-in not started", metadata: ["provider": "\(providerID)", "refusal": "\(refusal.code)"])
            // An app gets the error back in its own URL, so that its SDK reports it instead of waiting on this page.
            guard let back = handoff.failure(code: Self.sdkCode(refusal), message: refusal.message, authDomain: authDomain) else {
                return page(.damaged, status: .badRequest, language: language)
            }
            return redirect(to: back)
        }
    }

    /// Where the answer goes: an app this server lists, or a page on an authorized domain. Each names its sign-in with
    /// an `eventId` it keeps: without one it could not tell its own hand-off from one an attacker sends it.
    private func handoff(_ query: Parameters) -> ProviderHandoff? {
        guard let eventID = Self.eventID(query) else { return nil }
        if let bundleID = query.get("ibi") {
            // The scheme comes from the listed app's own ids, never from the request alone: another app could claim it.
            guard let app = apps.iOSApp(bundleID: bundleID) else { return nil }
            let clientID = query.get("clientId").flatMap { $0 == app.clientID ? $0 : nil }
            let appID = query.get("appId").flatMap { $0 == app.googleAppID ? $0 : nil }
            guard clientID != nil || appID != nil, let scheme = ProviderHandoff.iOSScheme(clientID: clientID, appID: appID) else { return nil }
            return .iOS(scheme: scheme, eventID: eventID)
        }
        if let package = query.get("apn") {
            guard let app = apps.androidApp(packageName: package) else { return nil }
            return .android(packageName: app.packageName, eventID: eventID)
        }
        guard let redirectURL = query.get("redirectUrl"), let host = ActionCodeSettings.host(ofContinueURL: redirectURL),
            authorizedDomains.contains(host)
        else { return nil }
        return .web(redirectURL: redirectURL)
    }

    /// The caller's `eventId`, when it is a plausible one.
    private static func eventID(_ query: Parameters) -> String? {
        query.get("eventId").flatMap { (1...128).contains($0.utf8.count) && !$0.containsControlCharacters ? $0 : nil }
    }

    /// Hands the provider's answer to where the sign-in `state` names wants it, leaving the sign-in for `signInWithIdp`.
    private func handOver(state: String, answer: [(String, String)], inFragment: Bool, _ request: Request, _ language: LanguageTag) async throws
        -> Response
    {
        let expected = binding(state: state, path: request.uri.path, maxAge: 0)
        guard request.cookies[expected.name]?.value == expected.value, let session = try await authorization.session(state: state),
            let handoff = ProviderHandoff(json: session.handoff), session.redirectURI == ownURL(request)
        else { return page(.expired, status: .gone, language: language) }
        let link = session.redirectURI + (inFragment ? "#" : "?") + QueryString.encode(answer)
        var response = redirect(to: handoff.destination(link: link, sessionID: session.sessionID, providerID: session.providerID, authDomain: authDomain))
        response.setCookie(expected)  // spent: Max-Age 0
        return response
    }

    /// The cookie that ties the sign-in `state` names to the browser that started it: name and value are keyed hashes
    /// of the state, so no one can set it in another browser, and `SameSite=Lax` keeps it off cross-site posts.
    private func binding(state: String, path: String, maxAge: Int) -> Cookie {
        let mac = secret.hash(state, for: .browserBinding).base64URLEncoded()
        return Cookie(
            name: "lk_idp_" + mac.prefix(12), value: mac, maxAge: maxAge, path: path, secure: publicURL.scheme == "https", httpOnly: true,
            sameSite: .lax)
    }

    /// The host (and port) of the public URL: the auth domain the iOS SDK's callback URLs name.
    private var authDomain: String { (publicURL.host() ?? "") + (publicURL.port.map { ":\($0)" } ?? "") }

    /// The SDKs' name for why a sign-in could not start (`auth/…`); a provider that cannot be reached is a network error.
    static func sdkCode(_ refusal: SignInError) -> String {
        switch refusal {
        case .invalidIDPResponse: "auth/network-request-failed"
        default: "auth/" + refusal.code.lowercased().replacingOccurrences(of: "_", with: "-")
        }
    }

    /// This page's own URL at the public address: the redirect URI registered at providers.
    private func ownURL(_ request: Request) -> String {
        var base = publicURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + request.uri.path
    }

    private func redirect(to location: String) -> Response {
        var headers = HTMLPage.privateHeaders
        headers[.location] = location
        return Response(status: .found, headers: headers)
    }

    private func page(_ outcome: HandlerPage.Outcome, status: HTTPResponse.Status, language: LanguageTag) -> Response {
        let nonce = HTMLPage.makeNonce()
        return HTMLPage.response(
            status: status, html: pages.handlerPage(HandlerPage(outcome, appName: appName, nonce: nonce), language: language),
            contentSecurityPolicy: HTMLPage.contentSecurityPolicy(
                nonce: nonce, scriptFromSelf: outcome == .continuing, formsToSelf: outcome == .continuing))
    }

    /// `hl` (the iOS SDK's language), else the browser's.
    private static func language(_ request: Request) -> LanguageTag {
        LanguageTag(request.uri.queryParameters.get("hl") ?? "")
            ?? LanguageTag.preferred(firebaseLocale: nil, acceptLanguage: request.headers[.acceptLanguage])
    }

    /// Moves an answer out of the fragment, which never reaches the server, into a POST, which keeps it out of URLs.
    static let relayScript = """
        "use strict";
        (function () {
          var form = document.getElementById("relay");
          var answer = new URLSearchParams(location.hash.slice(1));
          if (!form || !answer.has("state")) return;
          answer.forEach(function (value, name) {
            var field = document.createElement("input");
            field.type = "hidden";
            field.name = name;
            field.value = value;
            form.appendChild(field);
          });
          history.replaceState(null, "", location.pathname);
          form.submit();
        })();

        """
}
