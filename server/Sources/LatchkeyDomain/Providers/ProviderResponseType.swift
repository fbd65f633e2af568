/// What a provider answers the browser with: an authorization code to exchange, or an ID token at once (the implicit
/// flow, in the fragment).
package enum ProviderResponseType: String, Sendable {
    case code
    case idToken
}
