import Foundation
import Latchkey
import LatchkeyAuth
import Testing

/// LatchkeyAuth's TOTP second factor and provider sign-in against the real application: the server's clock is the
/// test's, so that the authenticator's codes are the server's.
@Suite(.outsideProcesses) struct AuthSecondFactorAndProviderTests {
    @Test func enrollATOTPFactorThenSignInWithIt() async throws {
        let clock = FixedClock(Date())
        try await withApp(["mfa.state": "ENABLED"], clock: clock) { client, _, mailbox in
            let auth = RouterTransport(client).auth()
            let user = try await auth.createUser(withEmail: "nia@example.com", password: "nia's password").user
            // Only a proven address may add a second factor.
            try await user.sendEmailVerification()
            try await auth.applyActionCode(try await mailbox.code(at: 0))
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            let url = try #require(URLComponents(string: secret.generateQRCodeURL(withAccountName: "nia@example.com", issuer: "Example")))
            #expect(url.scheme == "otpauth" && url.host == "totp" && url.queryItems?.first { $0.name == "secret" }?.value == secret.sharedSecretKey())
            #expect(!"\(secret)".contains(secret.sharedSecretKey()))
            let authenticator = TestAuthenticator(secret: try TestAuthenticator.decode(base32: secret.sharedSecretKey()), factorID: "")
            let enrollment = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: authenticator.code(at: clock.now))
            try await user.multiFactor.enroll(with: enrollment, displayName: "Phone")
            let factor = try #require(user.multiFactor.enrolledFactors.first)
            #expect(factor.displayName == "Phone" && factor.factorID == "totp")
            #expect(abs(try #require(factor.enrollmentDate).timeIntervalSince(clock.now)) < 1)
            try auth.signOut()

            let challenge = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "nia@example.com", password: "nia's password") }
            let resolver = try #require(challenge?.resolver)
            #expect(challenge?.code == .secondFactorRequired && resolver.hints.map(\.uid) == [factor.uid] && auth.currentUser == nil)
            clock.advance(by: 30)
            let wrong = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: "000000")
            let refused = await #expect(throws: AuthError.self) { try await resolver.resolveSignIn(with: wrong) }
            #expect(refused?.code == .invalidVerificationCode)
            let right = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: authenticator.code(at: clock.now))
            let signedIn = try await resolver.resolveSignIn(with: right)
            #expect(signedIn.user.uid == user.uid && auth.currentUser === signedIn.user)
            #expect(try await signedIn.user.getIDTokenResult().signInSecondFactor == "totp")

            // Re-authenticating asks for the factor too; the resolver renews this user's session.
            let again = await #expect(throws: AuthError.self) {
                try await signedIn.user.reauthenticate(with: EmailAuthProvider.credential(withEmail: "nia@example.com", password: "nia's password"))
            }
            let reauthentication = try #require(again?.resolver)
            clock.advance(by: 30)
            let renewed = try await reauthentication.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: authenticator.code(at: clock.now)))
            #expect(renewed.user === signedIn.user && auth.currentUser === signedIn.user)
            #expect("\(reauthentication)" == "MultiFactorResolver(1 factors)")

            try await signedIn.user.multiFactor.unenroll(withFactorUID: factor.uid)
            #expect(signedIn.user.multiFactor.enrolledFactors.isEmpty)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: "nia@example.com", password: "nia's password").user.uid == user.uid)
        }
    }

    /// An ID token from the local OpenID Connect provider signs in (the server's clock is the provider's); one for an
    /// address that has an account is `accountExistsWithDifferentCredential` with the credential to link; a forged one
    /// is refused.
    /// The owner moves the account, then, signed in with an authenticator, cancels the undo mailed to the old address.
    @Test func cancelThePendingUndoOfAnAddressChange() async throws {
        let clock = FixedClock(Date())
        try await withApp(["mfa.state": "ENABLED"], clock: clock) { client, _, mailbox in
            let auth = RouterTransport(client).auth()
            let user = try await auth.createUser(withEmail: "noa@example.com", password: "noa's password").user
            try await user.sendEmailVerification()
            try await auth.applyActionCode(try await mailbox.code(at: 0))
            try await user.sendEmailVerification(beforeUpdatingEmail: "noa@example.net")
            try await auth.applyActionCode(try await mailbox.code(at: 1))
            let undo = try await mailbox.code(at: 2)
            #expect(try await auth.checkActionCode(undo).operation == .recoverEmail)
            let noa = try await auth.signIn(withEmail: "noa@example.net", password: "noa's password").user
            let unprotected = await #expect(throws: AuthError.self) { try await noa.cancelPendingEmailUndos() }
            #expect(unprotected?.code == .multiFactorInfoNotFound)

            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await noa.multiFactor.session())
            let authenticator = TestAuthenticator(secret: try TestAuthenticator.decode(base32: secret.sharedSecretKey()), factorID: "")
            try await noa.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: authenticator.code(at: clock.now)), displayName: "Phone")
            #expect(try await noa.cancelPendingEmailUndos() == 1)
            let cancelled = await #expect(throws: AuthError.self) { try await auth.applyActionCode(undo) }
            #expect(cancelled?.code == .invalidActionCode)
        }
    }

    @Test func signInWithAProvidersIDToken() async throws {
        let provider = try await OIDCProviderMock.shared.value
        let settings: [String: Any] = [
            "identityProviders": [["providerId": "oidc.mock", "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true]]
        ]
        try await withApp(settings, clock: RunningClock()) { client, _, _ in
            let auth = RouterTransport(client).auth()
            let idToken = try await provider.idToken(subject: "olga-1", claims: ["email": "olga@example.com", "email_verified": true])
            let result = try await auth.signIn(with: OAuthProvider.credential(providerID: "oidc.mock", idToken: idToken))
            #expect(result.additionalUserInfo?.isNewUser == true && result.additionalUserInfo?.providerID == "oidc.mock")
            #expect(result.user.email == "olga@example.com" && result.user.providerData.map(\.providerID) == ["oidc.mock"])
            #expect(try await result.user.getIDTokenResult().signInProvider == "oidc.mock")

            // A provider that does not vouch for an address with an account: sign in the other way, then link.
            _ = try await auth.createUser(withEmail: "pia@example.com", password: "pia's password")
            try auth.signOut()
            let unproven = try await provider.idToken(subject: "pia-1", claims: ["email": "pia@example.com", "email_verified": false])
            let exists = await #expect(throws: AuthError.self) {
                try await auth.signIn(with: OAuthProvider.credential(providerID: "oidc.mock", idToken: unproven))
            }
            #expect(exists?.code == .accountExistsWithDifferentCredential && exists?.email == "pia@example.com" && auth.currentUser == nil)
            let pending = try #require(exists?.updatedCredential)
            let pia = try await auth.signIn(withEmail: "pia@example.com", password: "pia's password").user
            try await pia.link(with: pending)
            #expect(Set(pia.providerData.map(\.providerID)) == ["password", "oidc.mock"])

            let forged = await #expect(throws: AuthError.self) {
                try await auth.signIn(with: OAuthProvider.credential(providerID: "oidc.mock", idToken: idToken + "x"))
            }
            #expect(forged?.code == .invalidCredential)
        }
    }
}
