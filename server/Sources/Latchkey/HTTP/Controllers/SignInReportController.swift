import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// `/__/auth/not-me`: the "this wasn't me" link of every sign-in email (`SignInReport`). A GET (or a scanner's HEAD)
/// only shows the page; its buttons post the link's token back, to report the sign-in (`CoolOffs.report`) or to lift the
/// address's cool-off. The query is never logged (see `RequestLoggingMiddleware`).
struct SignInReportController {
    let coolOffs: CoolOffs
    let pages: PageRenderer
    let appName: String
    /// `emailLink.coolOffSeconds`, in hours rounded up, for the page to say.
    let coolOffHours: Int

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(RouterPath(SignInReport.path), use: show)
            .post(RouterPath(SignInReport.path), use: act)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = request.uri.queryParameters.get("token") ?? ""
        guard let standing = try await coolOffs.look(token) else { return page(.invalid, nil, token: nil, status: .notFound, request) }
        return page(.asking, standing, token: token, status: .ok, request)
    }

    @Sendable func act(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = QueryString.decode(String(buffer: try await request.body.collect(upTo: 4096))) ?? []
        let token = form.first { $0.name == "token" }?.value ?? ""
        let caller = context.caller(of: request)
        let (state, standing): (SignInReportPage.State, CoolOffs.Standing?) =
            switch form.first(where: { $0.name == "intent" })?.value {
            case "report": (.reported, try await coolOffs.report(token, by: caller, logger: context.logger))
            case "lift": (.lifted, try await coolOffs.lift(token, by: caller, logger: context.logger))
            default: (.invalid, nil)
            }
        guard let standing else { return page(.invalid, nil, token: nil, status: .badRequest, request) }
        return page(state, standing, token: token, status: .ok, request)
    }

    private func page(
        _ state: SignInReportPage.State, _ standing: CoolOffs.Standing?, token: String?, status: HTTPResponse.Status, _ request: Request
    ) -> Response {
        let language =
            LanguageTag(request.uri.queryParameters.get("lang") ?? "")
            ?? LanguageTag.preferred(firebaseLocale: nil, acceptLanguage: request.headers[.acceptLanguage])
        let nonce = HTMLPage.makeNonce()
        let view = SignInReportPage(state, standing: standing, token: token, coolOffHours: coolOffHours, appName: appName, nonce: nonce)
        return HTMLPage.response(
            status: status, html: pages.reportPage(view, language: language),
            contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce, formsToSelf: token != nil))
    }
}
