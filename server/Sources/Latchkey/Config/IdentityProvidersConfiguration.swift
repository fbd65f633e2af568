/// Sign-in with identity providers: the providers (`identityProviders`), how their flows are kept (`idp`), and whether
/// one address may have several accounts (`signIn`).
///
/// - `identityProviders` (list of objects, default `[]`): see `IdentityProviderSettings`. A list rather than an object
///   keyed by provider id, because provider ids hold dots and every key must stay a path that an environment variable
///   can name.
/// - `idp.authSessionTtlSeconds` (integer, 60 to 3600, default 600): how long a started provider sign-in may take.
/// - `idp.pendingTokenTtlSeconds` (integer, 60 to 86400, default 3600): how long an unused `pendingToken` stays usable.
/// - `idp.allowInsecureIssuers` (boolean, default false): allow `http://` issuers for every provider (tests only).
/// - `signIn.allowDuplicateEmails` (boolean, default false): one account per provider identity, even when the
///   address already has an account, instead of Firebase's default "one account per email address".
package struct IdentityProvidersConfiguration: Sendable, Equatable {
    package var providers: [IdentityProviderSettings]
    package var authSessionTTLSeconds: Int
    package var pendingTokenTTLSeconds: Int
    package var allowsInsecureIssuers: Bool
    package var allowsDuplicateEmails: Bool
    /// What `check-config` warns of without refusing the file: each `oidc.` provider left to believe `email_verified`.
    package var warnings: [String] = []

    package init(
        providers: [IdentityProviderSettings] = [], authSessionTTLSeconds: Int = 600, pendingTokenTTLSeconds: Int = 3600,
        allowsInsecureIssuers: Bool = false, allowsDuplicateEmails: Bool = false
    ) {
        self.providers = providers
        self.authSessionTTLSeconds = authSessionTTLSeconds
        self.pendingTokenTTLSeconds = pendingTokenTTLSeconds
        self.allowsInsecureIssuers = allowsInsecureIssuers
        self.allowsDuplicateEmails = allowsDuplicateEmails
    }

    /// The configured provider `id`, enabled or not.
    package func provider(_ id: String) -> IdentityProviderSettings? {
        providers.first { $0.providerID == id }
    }

    init(_ read: inout ConfigSectionReader, mode: AppConfiguration.Mode, environment: [String: String]) {
        authSessionTTLSeconds = read.int("idp.authSessionTtlSeconds", default: 600, in: 60...3600)
        pendingTokenTTLSeconds = read.int("idp.pendingTokenTtlSeconds", default: 3600, in: 60...86_400)
        allowsInsecureIssuers = read.bool("idp.allowInsecureIssuers") ?? false
        allowsDuplicateEmails = read.bool("signIn.allowDuplicateEmails") ?? false
        let insecure = allowsInsecureIssuers
        var warnings: [String] = []
        providers = read.objectList("identityProviders", fields: IdentityProviderSettings.fields).compactMap { prefix in
            let provider = IdentityProviderSettings(&read, prefix, mode: mode, allowsInsecureIssuers: insecure, environment: environment)
            if let provider, provider.providerID.hasPrefix("oidc."), !read.isPresent("\(prefix).emailTrust") {
                warnings.append(
                    "\(prefix).emailTrust: \(provider.providerID) is believed when it says an address is verified (claim, the default): "
                        + "it then signs in to the account with that address, and takes over one whose address was never verified; "
                        + "set always, claim or never to say so")
            }
            return provider
        }
        self.warnings = warnings
        let ids = providers.map(\.providerID)
        for id in Set(ids) where ids.filter({ $0 == id }).count > 1 {
            read.problems.add("identityProviders", "lists \(id) twice")
        }
    }
}
