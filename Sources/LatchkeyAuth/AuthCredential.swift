import Foundation
import LatchkeyWire

/// Proof of who the user is, to sign in, link or re-authenticate with (Firebase's `AuthCredential`).
public struct AuthCredential: Sendable, CustomStringConvertible, CustomReflectable {
    enum Proof: Sendable {
        case emailLink(email: String, link: String)
        case password(email: String, password: String)
        /// A provider's ID token and/or access token, as `accounts:signInWithIdp` takes them in `postBody`.
        case provider(idToken: String?, rawNonce: String?, accessToken: String?)
        /// The service's `pendingToken` for a credential it already checked (`accountExistsWithDifferentCredential`).
        case pending(token: String)
        /// The provider's answer the service's hosted page handed back (`link`), with the sign-in's session id.
        case providerResponse(requestURI: String, sessionID: String)
        /// A texted code, or a temporary proof of a number (`PhoneAuthProvider`).
        case phone(PhoneAuthCredential)
    }

    /// `password` (for a password or an email link, as Firebase), `phone`, or the identity provider's id
    /// (`google.com`, `apple.com`, `oidc.…`).
    public let provider: String
    let proof: Proof

    /// Never shows the secret it holds, nor does `dump`.
    public var description: String { "AuthCredential(\(provider))" }
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider]) }
}

/// Credentials for an address (Firebase's `EmailAuthProvider`).
public enum EmailAuthProvider {
    public static let id = "password"
    public static let emailLinkSignInMethod = "emailLink"
    public static let emailPasswordSignInMethod = "password"

    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(provider: id, proof: .password(email: email, password: password))
    }

    /// Its provider is `password`, as Firebase's: both prove the address (the ID token's `sign_in_provider` says so too).
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        AuthCredential(provider: id, proof: .emailLink(email: email, link: link))
    }
}

/// An identity provider (Firebase's `OAuthProvider`): credentials from tokens the app got itself, or a sign-in
/// through the service's hosted page (`credential(with:)` on Apple platforms).
public struct OAuthProvider: Sendable {
    public let providerID: String
    /// Scopes beyond `openid email profile`.
    public var scopes: [String] = []
    /// Parameters for the provider's authorization request, such as `prompt` or `login_hint`.
    public var customParameters: [String: String] = [:]
    let auth: Auth
    /// The app's client id as the service lists it under `apps.ios`; reversed, it is the URL scheme the sign-in
    /// comes back on (`com.googleusercontent.apps.123` for `123.apps.googleusercontent.com`).
    let appClientID: String

    public init(providerID: String, auth: Auth, appClientID: String) {
        self.providerID = providerID
        self.auth = auth
        self.appClientID = appClientID
    }

    /// An OpenID Connect ID token and/or OAuth access token from `providerID`; `rawNonce` is the nonce whose SHA-256
    /// the app put in the provider's request.
    public static func credential(providerID: String, idToken: String? = nil, rawNonce: String? = nil, accessToken: String? = nil) -> AuthCredential {
        AuthCredential(provider: providerID, proof: .provider(idToken: idToken, rawNonce: rawNonce, accessToken: accessToken))
    }

    /// Sign in with Apple's ID token with the raw nonce (Firebase's `appleCredential(withIDToken:rawNonce:fullName:)`;
    /// Latchkey takes the name from the token's first sign-in, so none is passed).
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?) -> AuthCredential {
        credential(providerID: "apple.com", idToken: idToken, rawNonce: rawNonce)
    }

    /// A hosted-page sign-in about to start: the page to open, the scheme it comes back on, and its session id.
    struct HostedSignIn: Equatable {
        let url: URL
        let callbackScheme: String
        let sessionID: String
        let eventID: String
    }

    /// The service's `/__/auth/handler` request for this provider, for the app `bundleID`.
    func hostedSignIn(bundleID: String) throws -> HostedSignIn {
        let sessionID = UUID().uuidString, eventID = UUID().uuidString
        var page = URLComponents(url: auth.backend.serviceURL.appendingPathComponent("__/auth/handler"), resolvingAgainstBaseURL: false)
        page?.queryItems = [
            URLQueryItem(name: "apiKey", value: auth.backend.apiKey), URLQueryItem(name: "providerId", value: providerID),
            URLQueryItem(name: "ibi", value: bundleID), URLQueryItem(name: "clientId", value: appClientID),
            URLQueryItem(name: "eventId", value: eventID), URLQueryItem(name: "sessionId", value: sessionID),
        ] + (scopes.isEmpty ? [] : [URLQueryItem(name: "scopes", value: scopes.joined(separator: ","))])
            + (customParameters.isEmpty ? [] : [URLQueryItem(name: "customParameters", value: Self.json(customParameters))])
        guard let url = page?.url else { throw AuthError(.internalError, message: "the service URL cannot hold the sign-in page") }
        let scheme = appClientID.split(separator: ".").reversed().joined(separator: ".")
        return HostedSignIn(url: url, callbackScheme: scheme, sessionID: sessionID, eventID: eventID)
    }

    /// The credential in the URL the hosted page sent the app back to (`<scheme>://firebaseauth/link?deep_link_id=…`),
    /// or the error it reports (`firebaseError`).
    func credential(fromCallback callback: URL, of signIn: HostedSignIn) throws -> AuthCredential {
        let outer = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let inner = outer.first { $0.name == "deep_link_id" }?.value.flatMap { URLComponents(string: $0)?.queryItems } ?? []
        func value(_ name: String) -> String? { inner.first { $0.name == name }?.value }
        guard value("eventId") == signIn.eventID else { throw AuthError(.webContextCancelled, message: "the answer is for another sign-in") }
        if let link = value("link") {
            return AuthCredential(provider: providerID, proof: .providerResponse(requestURI: link, sessionID: signIn.sessionID))
        }
        guard let failure = value("firebaseError").flatMap({ try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }),
              let code = failure["code"]
        else { throw AuthError(.webContextCancelled, message: "the sign-in page answered neither a link nor an error") }
        // The page names the error as the SDKs do (`auth/operation-not-allowed`): the service's code in another spelling.
        let serverCode = code.replacingOccurrences(of: "auth/", with: "").replacingOccurrences(of: "-", with: "_").uppercased()
        throw AuthError(AuthErrorCode(serverCode: serverCode), message: failure["message"], serverCode: serverCode)
    }

    private static func json(_ parameters: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(parameters)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// Google Sign-In's tokens (Firebase's `GoogleAuthProvider`).
public enum GoogleAuthProvider {
    public static let id = "google.com"

    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        OAuthProvider.credential(providerID: id, idToken: idToken, accessToken: accessToken)
    }
}

extension AuthCredential {
    /// The `accounts:signInWithIdp` request for a provider's credential, for a signed-in user's `idToken` when linking.
    func identityProviderRequest(linkingTo idToken: String?, autoCreate: Bool) -> SignInWithIdpRequest? {
        var request = SignInWithIdpRequest(requestUri: "http://localhost", returnSecureToken: true, autoCreate: autoCreate ? nil : false)
        switch proof {
        case .provider(let providerIDToken, let rawNonce, let accessToken):
            var fields = [URLQueryItem(name: "providerId", value: provider)]
            if let providerIDToken { fields.append(URLQueryItem(name: "id_token", value: providerIDToken)) }
            if let accessToken { fields.append(URLQueryItem(name: "access_token", value: accessToken)) }
            if let rawNonce { fields.append(URLQueryItem(name: "nonce", value: rawNonce)) }
            var form = URLComponents()
            form.queryItems = fields
            request.postBody = form.percentEncodedQuery
        case .pending(let token):
            request.pendingToken = token
        case .providerResponse(let requestURI, let sessionID):
            request.requestUri = requestURI
            request.sessionId = sessionID
        case .emailLink, .password, .phone:
            return nil
        }
        request.idToken = idToken
        return request
    }
}
