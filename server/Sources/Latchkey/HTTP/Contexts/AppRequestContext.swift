import Foundation
import Hummingbird
import LatchkeyDomain
import NIOCore

/// The request context of every route but the admin ones (`AdminRequestContext`): Hummingbird's core storage, the
/// peer address, and who the caller is once `ClientAuthenticationMiddleware` has accepted it (an app's API key, or an
/// admin token).
package struct AppRequestContext: ClientRequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    package var apiKey: String?
    /// What the `Authorization` header proves, decided once by `AdminCredentialMiddleware`.
    package var credential = AdminCredential.none

    /// The client's IP address: the peer's, or the one a trusted proxy forwarded (`ClientAddressMiddleware`).
    package var clientIP: String?
    /// Whether the peer is a trusted proxy (`ClientAddressMiddleware`), whose request id the logs adopt.
    package var isFromTrustedProxy = false

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        clientIP = remoteAddress?.ipAddress
    }

    /// Identity Toolkit bodies are a few hundred bytes; anything past 64 KiB is refused (unread, unless the caller is
    /// an admin, whose routes allow more: `AdminRequestContext`).
    package var maxUploadSize = 64 * 1024

    package var responseEncoder: JSONEncoder { .api }

    /// The admin caller, on a path that serves both apps and admins (`accounts:lookup`, `accounts:update`, …).
    package var admin: AdminCaller? {
        guard case .admin(let caller) = credential else { return nil }
        return caller
    }

    /// Who sent `request`, and whether with an admin token, for the domain's limits.
    func caller(of request: Request) -> Caller {
        Caller(requester: requester(of: request), isAdmin: admin != nil)
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
