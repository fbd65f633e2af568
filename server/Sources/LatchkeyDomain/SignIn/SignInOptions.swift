/// What `createAuthUri` may tell about an address: whether it has an account and how that account signs in.
package struct SignInOptions: Sendable, Equatable {
    package var isRegistered: Bool
    /// Firebase's `allProviders`.
    package var providerIDs: [String]
    /// Firebase's `signinMethods`.
    package var signInMethods: [String]
}
