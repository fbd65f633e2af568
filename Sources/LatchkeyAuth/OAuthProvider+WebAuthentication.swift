#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices

extension OAuthProvider {
    /// Signs in through the service's hosted page in the system's browser sheet and answers the credential to pass to
    /// `Auth.signIn(with:)` (Firebase's `OAuthProvider.credential(with:)`). The app's bundle id must be listed in the
    /// service's `apps.ios` with `appClientID`, whose reversed form the app registers as a URL scheme.
    @MainActor
    public func credential(with presentationContext: any ASWebAuthenticationPresentationContextProviding) async throws -> AuthCredential {
        guard let bundleID = Bundle.main.bundleIdentifier else { throw AuthError(.missingIosBundleID, message: "the app has no bundle id") }
        let signIn = try hostedSignIn(bundleID: bundleID)
        let callback: URL = try await withCheckedThrowingContinuation { continuation in
            let session = ASWebAuthenticationSession(url: signIn.url, callbackURLScheme: signIn.callbackScheme) { url, error in
                if let url {
                    continuation.resume(returning: url)
                } else {
                    continuation.resume(throwing: AuthError(.webContextCancelled, message: error.map { "\($0)" }))
                }
            }
            session.presentationContextProvider = presentationContext
            if !session.start() {
                continuation.resume(throwing: AuthError(.webContextCancelled, message: "the browser sheet did not open"))
            }
        }
        return try credential(fromCallback: callback, of: signIn)
    }
}
#endif
