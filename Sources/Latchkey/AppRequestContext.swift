import Foundation
import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage, the peer address, and who the caller is
/// once `ClientAuthenticationMiddleware` has accepted it (an app's API key, or an admin token).
package struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    package var apiKey: String?
    /// Set by `ClientAuthenticationMiddleware` for a valid admin bearer token.
    package var isAdmin = false

    /// The client's IP address: the peer's, or the one a trusted proxy forwarded (`ClientAddressMiddleware`).
    package var clientIP: String?
    /// Whether the peer is a trusted proxy (`ClientAddressMiddleware`), whose request id the logs adopt.
    package var isFromTrustedProxy = false

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        clientIP = remoteAddress?.ipAddress
    }

    /// Identity Toolkit bodies are a few hundred bytes; anything past 64 KiB is refused unread, except where
    /// `RequestTimeoutMiddleware` allows an admin's import more.
    package var maxUploadSize = 64 * 1024

    package var responseEncoder: JSONEncoder { .api }

    /// Who sent `request`, for emails and the audit log.
    func requester(of request: Request) -> RequesterSummary {
        RequesterSummary(ipAddress: clientIP, userAgent: request.headers[.userAgent])
    }

    /// The language `request` asks for (`X-Firebase-Locale`, then `Accept-Language`), for the emails it causes.
    func language(of request: Request) -> LanguageTag {
        LanguageTag.preferred(firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage])
    }

    /// Who sent `request`, and whether with an admin token, for the domain's limits.
    func caller(of request: Request) -> Caller {
        Caller(requester: requester(of: request), isAdmin: isAdmin)
    }
}

extension JSONEncoder {
    /// How every response body is written: sorted keys, so answers are byte-identical whatever the input,
    /// and unescaped slashes, so URLs read as they are.
    package static let api: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
