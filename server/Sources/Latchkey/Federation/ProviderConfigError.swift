/// Why the admin API refused a provider configuration, in the codes Firebase's Admin SDKs know.
package enum ProviderConfigError: Error, Equatable {
    case exists
    case notFound
    case missingID
    case invalidID
    case missingIssuer
    case missingClientID
    case invalidClientID
    case invalidConfig(String)
    case invalidPageSelection
    /// A built-in provider id Latchkey does not know.
    case invalidProviderID
    /// The provider is defined in the configuration file, which the API cannot change.
    case readOnly

    package var code: String {
        switch self {
        case .exists: "CONFIGURATION_EXISTS"
        case .notFound: "CONFIGURATION_NOT_FOUND"
        case .missingID: "MISSING_CONFIG_ID"
        case .invalidID: "INVALID_CONFIG_ID"
        case .missingIssuer: "MISSING_ISSUER"
        case .missingClientID: "MISSING_OAUTH_CLIENT_ID"
        case .invalidClientID: "INVALID_OAUTH_CLIENT_ID"
        case .invalidConfig, .readOnly: "INVALID_CONFIG"
        case .invalidPageSelection: "INVALID_PAGE_SELECTION"
        case .invalidProviderID: "INVALID_PROVIDER_ID"
        }
    }

    package var detail: String? {
        switch self {
        case .invalidConfig(let detail): detail
        case .readOnly: "provider is defined in the configuration file"
        default: nil
        }
    }
}
