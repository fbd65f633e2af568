import Crypto
import Foundation
import Hummingbird

/// Recognizes privileged requests: `Authorization: Bearer <token>` matching one of `adminTokens`.
///
/// Tokens are compared as HMACs under a random per-process key: how long a comparison of two MACs takes
/// says nothing about how much of the token an attacker guessed right.
struct AdminAuthorization: Sendable {
    private let key = SymmetricKey(size: .bits256)
    private let tokenMACs: [Data]

    init(tokens: [String]) {
        let key = self.key
        tokenMACs = tokens.map { Data(HMAC<SHA256>.authenticationCode(for: Data($0.utf8), using: key)) }
    }

    /// True for a valid admin token, false without an `Authorization` header; any other credential is refused.
    func isAdmin(_ request: Request) throws -> Bool {
        guard let header = request.headers[.authorization] else { return false }
        guard header.hasPrefix("Bearer "), !tokenMACs.isEmpty else { throw APIError.unauthenticated }
        let presented = Data(HMAC<SHA256>.authenticationCode(for: Data(header.dropFirst("Bearer ".count).utf8), using: key))
        guard tokenMACs.contains(presented) else { throw APIError.unauthenticated }
        return true
    }
}

extension APIError {
    static let unauthenticated = APIError(
        status: .unauthorized, message: "Request had invalid authentication credentials.", reason: "unauthorized", rpcStatus: "UNAUTHENTICATED")
}
