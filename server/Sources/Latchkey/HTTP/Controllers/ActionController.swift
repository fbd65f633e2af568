import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// `GET /__/auth/action` (and `/__/auth/confirm`, the same for links no app may take): where an emailed link lands
/// when no app opened it.
///
/// It never changes state, because mail scanners open every link, often in a browser that runs scripts. It looks
/// the code up on a read-only snapshot and then either hands the code to the web app at `continueUrl`, as Firebase's
/// hosted page does (the app completes with `accounts:signInWithEmailLink`, or applies another action's code), or
/// shows a page in the request's language: the link is meant for an app, or it is expired, used, unknown or damaged,
/// or (for a live code of an action other than sign-in that the app does not handle) the page that asks the user to
/// confirm, whose script then posts the code to the API. The query is never logged (see `RequestLoggingMiddleware`).
///
/// Whether a link is meant for an app comes from the stored request, not from the link's query: the server decides
/// from what it issued, and an edited link cannot turn an app's link into a redirect or name other apps' stores.
struct ActionController {
    let inspector: LinkInspector
    let authorizedDomains: Set<String>
    let apps: AppsConfiguration
    let pages: PageRenderer
    let appName: String
    let publicURL: URL

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(RouterPath(ActionLink.actionPath), use: land)
            .get(RouterPath(ActionLink.browserPath), use: land)
            .get(RouterPath(ActionLink.actionPath + ".js"), use: script)
    }

    @Sendable func script(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTMLPage.privateHeaders
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: EmailActionPage.script)))
    }

    @Sendable func land(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let queryLanguage =
            LanguageTag(query.get("lang") ?? "")
            ?? LanguageTag.preferred(firebaseLocale: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let action = query.get("mode").flatMap(EmailAction.init(rawValue:)), let code = query.get("oobCode"), !code.isEmpty,
            code.utf8.count <= 256
        else {
            return page(.damaged, status: .badRequest, language: queryLanguage, backURL: backURL(query.get("continueUrl")), context: context)
        }
        let state = try await inspector.state(of: code)
        // A code of another action than the link's mode is as good as unknown: links are never edited by their owners.
        let found = state.request.flatMap { $0.action == action ? $0 : nil }
        let (language, back) = (found?.language ?? queryLanguage, backURL(found?.continueURL ?? query.get("continueUrl")))
        guard case .live(let pending) = state, found != nil else {
            let (outcome, status): (ActionPage.Outcome, HTTPResponse.Status) =
                switch state {
                case .used where found != nil: (.used, .gone)
                case .expired where found != nil: (.expired, .gone)
                default: (.unknown, .notFound)
                }
            if action != .signIn { return actionPage(action, live: nil, refused: outcome, status: status, language: language, backURL: back) }
            return page(outcome, status: status, language: language, backURL: back, context: context)
        }
        if pending.isForAppOnly { return appPage(for: pending, request: request, context: context) }
        if action != .signIn, !pending.handlesCodeInApp {
            context.logger.debug("Email action page shown", metadata: ["action": "\(action)"])
            return actionPage(action, live: pending, status: .ok, language: language, backURL: back)
        }
        guard back != nil, var components = URLComponents(string: pending.continueURL) else {
            // The continue URL's domain was removed from `authorizedDomains` since the link was sent.
            return page(.damaged, status: .badRequest, language: pending.language, backURL: nil, context: context)
        }
        // The web app reads these the way Firebase's `isSignInWithEmailLink` does.
        let handedOver = [
            URLQueryItem(name: "apiKey", value: query.get("apiKey") ?? ""), URLQueryItem(name: "oobCode", value: code),
            URLQueryItem(name: "mode", value: action.rawValue), URLQueryItem(name: "lang", value: pending.language.value),
        ]
        components.queryItems = (components.queryItems ?? []) + handedOver
        guard let location = components.string else {
            return page(.damaged, status: .badRequest, language: pending.language, backURL: nil, context: context)
        }
        context.logger.debug("Link handed to the web app", metadata: ["action": "\(action)"])
        var headers = HTMLPage.privateHeaders
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    /// The page for a valid link meant for an app that did not open it: open it in the app, get the app, or ask
    /// for a new link on this device.
    private func appPage(for pending: PendingRequest, request: Request, context: AppRequestContext) -> Response {
        let link = publicURL.absoluteString.trimmingSuffix("/") + request.uri.description
        var openInApp = link
        // Only configured apps are offered, whatever the stored request names: requests issued before that rule, or
        // before an app was removed from `apps`, must not hand a live code to someone else's app.
        let android = pending.androidPackageName.flatMap(apps.androidApp(packageName:))
        if let package = android?.packageName, request.headers[.userAgent]?.contains("Android") == true,
            let scheme = publicURL.scheme, let authority = publicURL.host(percentEncoded: true)
        {
            // Chrome on Android opens an intent URL in the named app; a plain link to this same page would not.
            let port = publicURL.port.map { ":\($0)" } ?? ""
            openInApp = "intent://\(authority)\(port)\(request.uri.description)#Intent;scheme=\(scheme);package=\(package);end"
        }
        let appStoreID = pending.iOSBundleID.flatMap { apps.iOSApp(bundleID: $0)?.appStoreID }
        let playStoreURL = pending.androidInstallApp ? android.map { Self.playStoreURL(package: $0.packageName) } : nil
        context.logger.debug("Link for an app opened in a browser")
        let nonce = HTMLPage.makeNonce()
        var view = ActionPage(
            .openInApp, appName: appName, nonce: nonce, backURL: backURL(pending.continueURL), openInAppURL: openInApp,
            appStoreURL: appStoreID.map { "https://apps.apple.com/app/id\($0)" }, playStoreURL: playStoreURL)
        // Safari's Smart App Banner offers "Open" (handing the link to the app) or "Get": a universal link opened
        // from a page of its own domain never opens the app, so this is the way there on iOS.
        view.smartAppBanner = appStoreID.map { "app-id=\($0), app-argument=\(link)" }
        return HTMLPage.response(
            status: .ok, html: pages.actionPage(view, language: pending.language), contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce))
    }

    /// An email action's page: the confirmation a live code gets, or why the code cannot be used.
    private func actionPage(
        _ action: EmailAction, live pending: PendingRequest?, refused: ActionPage.Outcome? = nil, status: HTTPResponse.Status,
        language: LanguageTag, backURL: String?
    ) -> Response {
        let nonce = HTMLPage.makeNonce()
        let view = EmailActionPage(action: action, live: pending, refused: refused, appName: appName, nonce: nonce, backURL: backURL)
        return HTMLPage.response(
            status: status, html: pages.emailActionPage(view, language: language),
            contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce, scriptFromSelf: pending != nil, connectsToSelf: pending != nil))
    }

    private func page(
        _ outcome: ActionPage.Outcome, status: HTTPResponse.Status, language: LanguageTag, backURL: String?, context: AppRequestContext
    ) -> Response {
        context.logger.debug("Link not handed over", metadata: ["outcome": "\(outcome)"])
        let nonce = HTMLPage.makeNonce()
        let view = ActionPage(outcome, appName: appName, nonce: nonce, backURL: backURL)
        return HTMLPage.response(
            status: status, html: pages.actionPage(view, language: language), contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce))
    }

    /// `continueURL` when it is still an acceptable continue URL: the way back to the app, which never carries a code.
    private func backURL(_ continueURL: String?) -> String? {
        guard let continueURL, let host = ActionCodeSettings.host(ofContinueURL: continueURL), authorizedDomains.contains(host) else { return nil }
        return continueURL
    }

    static func playStoreURL(package: String) -> String {
        "https://play.google.com/store/apps/details?id=\(package.percentEncodedForQuery)"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
