import Foundation
import LatchkeyWire

/// The entry point (Firebase's `Auth`): signs users in against one Latchkey service and keeps the signed-in user.
/// Make one per service and persistence for the life of the app: two on the same stored user would each renew its
/// tokens, and the service takes a refresh token used twice for a stolen one.
///
///     let auth = Auth(serviceURL: URL(string: "https://auth.example.com")!, apiKey: "…")
///     try await auth.sendSignInLink(toEmail: address, actionCodeSettings: settings)
///     // … later, with the link the app was opened with:
///     let result = try await auth.signIn(withEmail: address, link: url.absoluteString)
public final class Auth: Sendable {
    let state: AuthState
    var backend: IdentityToolkit { state.backend }

    /// An `Auth` for the service at `serviceURL` (the root the API paths `v1/…` hang off) and one of its API keys.
    /// The user signed in last time comes back from `persistence` when it was signed in to this service (the same
    /// scheme, host, port, path and API key); a session kept for another is left alone and never sent.
    public init(
        serviceURL: URL, apiKey: String, transport: any AuthTransport = URLSessionTransport(), persistence: (any UserPersistence)? = nil
    ) {
        state = AuthState(
            backend: IdentityToolkit(serviceURL: serviceURL, apiKey: apiKey, transport: transport),
            service: ServiceIdentity(serviceURL: serviceURL, apiKey: apiKey),
            persistence: persistence ?? Self.defaultPersistence(for: serviceURL))
    }

    /// The Keychain on Apple platforms; elsewhere a file under `~/.config/latchkey/`; one per service (scheme, host
    /// and port).
    static func defaultPersistence(for serviceURL: URL) -> any UserPersistence {
        #if canImport(Security)
        return KeychainUserPersistence(service: "latchkey.auth.\(ServiceIdentity.storageName(for: serviceURL))")
        #else
        return FileUserPersistence(service: serviceURL)
        #endif
    }

    /// The signed-in user, or `nil`.
    public var currentUser: User? { state.currentUser }

    /// The current user at once, then again after every sign-in and sign-out.
    public var authStateChanges: AsyncStream<User?> { state.changes() }

    /// Forgets the current user on this device. The session stays valid on the service until it expires or is revoked.
    public func signOut() throws {
        try state.signOut()
    }

    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, password: password))
    }

    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        let answer: SignupNewUserResponse = try await backend.call("v1/accounts:signUp", SignupNewUserRequest(email: email, password: password))
        return try await state.finish(SignInAnswer(answer), provider: EmailAuthProvider.id, isNewUser: true)
    }

    /// Signs in as a new anonymous user, or answers the current user when it is anonymous already.
    public func signInAnonymously() async throws -> AuthDataResult {
        if let user = currentUser, user.isAnonymous {
            return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: false))
        }
        let answer: SignupNewUserResponse = try await backend.call("v1/accounts:signUp", SignupNewUserRequest())
        return try await state.finish(SignInAnswer(answer), provider: nil, isNewUser: true)
    }

    /// Signs in as the user a custom token names: one the app's backend minted with a service account's key (Firebase's
    /// Admin SDKs' `create_custom_token`), creating the user the first time. The provider is `custom`.
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        let answer: SignInWithCustomTokenResponse = try await backend.call(
            "v1/accounts:signInWithCustomToken", SignInWithCustomTokenRequest(token: token))
        return try await state.finish(SignInAnswer(answer), provider: "custom", isNewUser: answer.isNewUser)
    }

    /// How the address can sign in (`password`, `emailLink`, a provider's id); empty for an unknown address, and
    /// always empty when the service protects against address enumeration.
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        let answer: CreateAuthUriResponse = try await backend.call(
            "v1/accounts:createAuthUri", CreateAuthUriRequest(identifier: email, continueUri: "http://localhost"))
        return answer.signinMethods ?? []
    }

    /// Signs in to the account of a texted number, creating it the first time, or with the temporary proof of
    /// `credentialAlreadyInUse`. An account with a second factor cannot sign in with its number (Firebase's rule).
    public func signIn(with credential: PhoneAuthCredential) async throws -> AuthDataResult {
        try await signIn(with: AuthCredential(credential))
    }

    /// Signs in with any credential: an email link, a password, a phone's, or an identity provider's tokens.
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        try await state.signIn(with: credential, linkingTo: nil)
    }
}

/// A sign-in's outcome (Firebase's `AuthDataResult`).
public struct AuthDataResult: Sendable {
    public let user: User
    public let additionalUserInfo: AdditionalUserInfo?
}

/// What the sign-in said beyond the user (Firebase's `AdditionalUserInfo`).
public struct AdditionalUserInfo: Sendable, Equatable {
    /// `password` (a password or an email link), the identity provider's id, or `nil` for an anonymous sign-in.
    public let providerID: String?
    public let isNewUser: Bool
}
