import Crypto
import Foundation
import Hummingbird

/// Recognizes privileged requests: `Authorization: Bearer <token>` matching one of `adminTokens`.
/// `AdminCredentialMiddleware` asks it once per request.
///
/// Tokens are compared as HMACs under a random per-process key: how long a comparison of two MACs takes
/// says nothing about how much of the token an attacker guessed right.
struct AdminAuthorization: Sendable {
    private let key = SymmetricKey(size: .bits256)
    private let tokenMACs: [Data]
    private let caller: AdminCaller

    /// `maxUploadSize`: how large a body an admin may send to an admin route.
    init(tokens: [String], maxUploadSize: Int) {
        let key = self.key
        tokenMACs = tokens.map { Data(HMAC<SHA256>.authenticationCode(for: Data($0.utf8), using: key)) }
        caller = AdminCaller(maxUploadSize: maxUploadSize)
    }

    /// The admin caller for a valid admin token, `.none` without an `Authorization` header; any other credential
    /// is refused.
    func credential(of request: Request) -> AdminCredential {
        guard let header = request.headers[.authorization] else { return .none }
        guard header.hasPrefix("Bearer "), !tokenMACs.isEmpty else { return .refused }
        let presented = Data(HMAC<SHA256>.authenticationCode(for: Data(header.dropFirst("Bearer ".count).utf8), using: key))
        return tokenMACs.contains(presented) ? .admin(caller) : .refused
    }
}

extension APIError {
    static let unauthenticated = APIError(
        status: .unauthorized, message: "Request had invalid authentication credentials.", reason: "unauthorized", rpcStatus: "UNAUTHENTICATED")
}
