/// Firebase's `CreateAuthUriRequest` (`accounts:createAuthUri`): how an address can sign in.
public struct CreateAuthUriRequest: Sendable, Codable, Equatable {
    /// The email address asked about.
    public var identifier: String?
    /// Required by Firebase; Latchkey ignores it, whatever its type.
    public var continueUri: String?

    public init(identifier: String?, continueUri: String? = nil) {
        self.identifier = identifier
        self.continueUri = continueUri
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        continueUri = container.decodeLenientString(forKey: .continueUri)
    }
}
