import Hummingbird
import LatchkeyDomain

/// What every API route's context knows of its client, whether an app's (`AppRequestContext`) or an admin's
/// (`AdminRequestContext`): the client's address, for emails, the audit log and per-IP limits.
package protocol ClientRequestContext: RequestContext {
    /// The client's IP address: the peer's, or the one a trusted proxy forwarded (`ClientAddressMiddleware`).
    var clientIP: String? { get }
}

extension ClientRequestContext {
    /// Who sent `request`, for emails and the audit log.
    func requester(of request: Request) -> RequesterSummary {
        RequesterSummary(ipAddress: clientIP, userAgent: request.headers[.userAgent])
    }

    /// The language `request` asks for (`X-Firebase-Locale`, then `Accept-Language`), for the emails it causes.
    func language(of request: Request) -> LanguageTag {
        LanguageTag.preferred(firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage])
    }
}
