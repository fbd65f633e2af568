import Foundation
import HummingbirdTesting
@testable import LatchkeyAuth
import Testing

/// The part of `OAuthProvider.credential(with:)` that runs everywhere: the hosted page's request for an Apple app, and
/// the credential in the URL it sends the app back to. (Only the browser sheet between them is Apple's.)
@Suite(.timeLimit(.minutes(3))) struct AuthHostedSignInTests {
    static let appClientID = "123-abc.apps.googleusercontent.com"

    @Test func theHostedPageSignsInAnAppleApp() async throws {
        let handler = ProviderHandlerTests()
        try await handler.withHandler { client, provider in
            let auth = RouterTransport(client).auth()
            var oauth = OAuthProvider(providerID: "oidc.mock", auth: auth, appClientID: Self.appClientID)
            oauth.customParameters = ["prompt": "login"]
            let signIn = try oauth.hostedSignIn(bundleID: "com.example.app")
            #expect(signIn.callbackScheme == "com.googleusercontent.apps.123-abc")
            let destination = try await handler.signInAtProvider(client, provider, query: try #require(signIn.url.query), subject: "una-1")
            let callback = try #require(URL(string: destination))
            #expect(callback.scheme == signIn.callbackScheme)

            let result = try await auth.signIn(with: try oauth.credential(fromCallback: callback, of: signIn))
            #expect(result.additionalUserInfo?.providerID == "oidc.mock" && result.user.providerData.first?.uid == "una-1")
            #expect(result.user.email == "una-1@example.com")
            // The answer belongs to that sign-in only.
            let other = try oauth.hostedSignIn(bundleID: "com.example.app")
            #expect(throws: AuthError.self) { try oauth.credential(fromCallback: callback, of: other) }
        }
    }

    /// A sign-in that cannot start comes back with the service's reason, which the app reports.
    @Test func aSignInThatCannotStartReportsWhy() async throws {
        try await ProviderHandlerTests().withHandler { client, _ in
            let oauth = OAuthProvider(providerID: "oidc.nope", auth: RouterTransport(client).auth(), appClientID: Self.appClientID)
            let signIn = try oauth.hostedSignIn(bundleID: "com.example.app")
            let query = try #require(signIn.url.query)
            let page = try await client.execute(uri: "/__/auth/handler?" + query, method: .get)
            let location = try #require(page.headers[.location])
            let callback = try #require(URL(string: location))
            let error = #expect(throws: AuthError.self) { try oauth.credential(fromCallback: callback, of: signIn) }
            #expect(error?.code != .webContextCancelled && error?.serverCode != nil && error?.message?.isEmpty == false, "\(String(describing: error))")
        }
    }
}
