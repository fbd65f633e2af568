/// The Secure Token API's `grant_type`; a refresh is the only grant a client makes.
public enum GrantType: String, Sendable, Codable, Equatable {
    /// A refresh token for a new ID token.
    case refreshToken = "refresh_token"

    /// An empty name is no grant type at all (`MISSING_GRANT_TYPE`); any other unknown name is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard !name.isEmpty else {
            throw DecodingError.valueNotFound(Self.self, .init(codingPath: decoder.codingPath, debugDescription: "Empty grant type."))
        }
        guard let type = Self(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a grant type this server serves.")
        }
        self = type
    }
}
