/// The JWS algorithms ID tokens can be signed with (`tokens.algorithm` chooses the one new keys use).
package enum SigningAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256"
    case es256 = "ES256"
}
