/// Why a provider's answer or a credential from it was not accepted.
package enum ProviderFailure: Error, Equatable, CustomStringConvertible {
    /// `INVALID_IDP_RESPONSE : reason`: the provider is down, slow or lies, or the credential is forged, expired or
    /// meant for someone else. The reason is short and never holds a token.
    case invalidResponse(String)
    /// `MISSING_OR_INVALID_NONCE`: the ID token's nonce is not the one this sign-in asked for.
    case invalidNonce

    package var description: String {
        switch self {
        case .invalidResponse(let reason): "INVALID_IDP_RESPONSE : \(reason)"
        case .invalidNonce: "MISSING_OR_INVALID_NONCE"
        }
    }
}
