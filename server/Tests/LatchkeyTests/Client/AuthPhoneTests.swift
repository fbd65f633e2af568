import Foundation
import Latchkey
import LatchkeyAuth
import Testing

/// LatchkeyAuth's phone sign-in and phone second factor against the real application, in Firebase's shapes
/// (`PhoneAuthProvider`, `PhoneMultiFactorGenerator`, `MultiFactorResolver`), the codes read from the texts the
/// development gateway writes.
@Suite(.outsideProcesses) struct AuthPhoneTests {
    static let ann = "+16505550101"
    static let bob = "+442079460958"
    /// Second factors on; several texts a minute to one number and address.

    /// Runs `body` with an `Auth` on the application, its texts and its mail.
    func withPhoneApp(_ body: @Sendable (Auth, TextsInbox, Mailbox) async throws -> Void) async throws {
        try await withApp(["mfa.state": "ENABLED", "rateLimits.textPerNumber": [], "rateLimits.textPerIP": []]) { client, workspace, mailbox in
            try await body(RouterTransport(client).auth(), TextsInbox(directory: workspace.textsDirectory), mailbox)
        }
    }

    /// Texts `number` a sign-in code and makes the credential of it, the `index`-th text.
    func textedCredential(_ provider: PhoneAuthProvider, to number: String, _ texts: TextsInbox, at index: Int) async throws -> PhoneAuthCredential {
        let verificationID = try await provider.verifyPhoneNumber(number)
        return provider.credential(withVerificationID: verificationID, verificationCode: try await texts.code(at: index, to: number))
    }

    @Test func aTextedCodeSignsInThenSignsInAgain() async throws {
        try await withPhoneApp { auth, texts, _ in
            let provider = PhoneAuthProvider.provider(auth: auth)
            let badNumber = await #expect(throws: AuthError.self) { try await provider.verifyPhoneNumber("+1555") }
            #expect(badNumber?.code == .invalidPhoneNumber)

            let verificationID = try await provider.verifyPhoneNumber("+1 (650) 555-0101")
            let code = try await texts.code(at: 0, to: Self.ann)
            let wrong = await #expect(throws: AuthError.self) {
                let wrongCode = code == "000000" ? "111111" : "000000"
                return try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: wrongCode))
            }
            #expect(wrong?.code == .invalidVerificationCode && auth.currentUser == nil)
            let credential = provider.credential(withVerificationID: verificationID, verificationCode: code)
            #expect(!"\(credential)".contains(code) && !"\(credential)".contains(verificationID))
            let created = try await auth.signIn(with: credential)
            #expect(created.additionalUserInfo?.providerID == "phone" && created.additionalUserInfo?.isNewUser == true)
            #expect(created.user.phoneNumber == Self.ann && created.user.providerData.map(\.providerID) == ["phone"] && !created.user.isAnonymous)
            let token = try await created.user.getIDTokenResult()
            #expect(token.signInProvider == "phone" && token.claims["phone_number"] as? String == Self.ann)

            try auth.signOut()
            let again = try await auth.signIn(
                with: try await textedCredential(provider, to: Self.ann, texts, at: 1))
            #expect(again.user.uid == created.user.uid && again.additionalUserInfo?.isNewUser == false)
            let spent = await #expect(throws: AuthError.self) { try await auth.signIn(with: credential) }
            #expect(spent?.code == .invalidVerificationID)

            // A fresh code re-authenticates the same user, whose session continues.
            let renewed = try await again.user.reauthenticate(
                with: try await textedCredential(provider, to: Self.ann, texts, at: 2))
            #expect(renewed.user === again.user && auth.currentUser === again.user)
        }
    }

    /// Linking adds the number and unlinking removes it; linking a number another account has is
    /// `credentialAlreadyInUse` with a credential of the number, which signs in to that account.
    @Test func linkUnlinkAndTheCredentialOfANumberInUse() async throws {
        try await withPhoneApp { auth, texts, _ in
            let provider = PhoneAuthProvider.provider(auth: auth)
            let ann = try await auth.signIn(
                with: try await textedCredential(provider, to: Self.ann, texts, at: 0)
            ).user

            let bob = try await auth.createUser(withEmail: "bob@example.com", password: "bob's password").user
            let linked = try await bob.link(
                with: try await textedCredential(provider, to: Self.bob, texts, at: 1))
            #expect(linked.user === bob && bob.phoneNumber == Self.bob && Set(bob.providerData.map(\.providerID)) == ["password", "phone"])
            #expect(try await bob.getIDTokenResult(forcingRefresh: true).claims["phone_number"] as? String == Self.bob)
            // The linking session was signed in with the phone, and ends with it (the server's rule for an unlinked
            // provider): unlink from a password session.
            let byPassword = try await auth.signIn(withEmail: "bob@example.com", password: "bob's password").user
            #expect(byPassword.phoneNumber == Self.bob)
            try await byPassword.unlink(fromProvider: PhoneAuthProvider.id)
            #expect(byPassword.phoneNumber == nil && byPassword.providerData.map(\.providerID) == ["password"])

            let carl = try await auth.createUser(withEmail: "carl@example.com", password: "carl's password").user
            let taken = await #expect(throws: AuthError.self) {
                try await carl.link(
                    with: try await textedCredential(provider, to: Self.ann, texts, at: 2))
            }
            #expect(taken?.code == .credentialAlreadyInUse && carl.phoneNumber == nil)
            let updated = try #require(taken?.updatedPhoneCredential)
            #expect(updated.phoneNumber == Self.ann && taken?.updatedCredential?.provider == "phone")
            let signedIn = try await auth.signIn(with: updated)
            #expect(signedIn.user.uid == ann.uid && auth.currentUser === signedIn.user)
            let spent = await #expect(throws: AuthError.self) { try await auth.signIn(with: updated) }
            #expect(spent?.code == .invalidCredential)
        }
    }

    /// The seed's flow: a phone enrolled through `multiFactor.session()`, then a password sign-in answered with the
    /// challenge, whose phone hint (the number masked) is texted and resolved.
    @Test func enrollAPhoneFactorThenPassItsChallenge() async throws {
        try await withPhoneApp { auth, texts, mailbox in
            let user = try await auth.createUser(withEmail: "nia@example.com", password: "nia's password").user
            try await user.sendEmailVerification()
            try await auth.applyActionCode(try await mailbox.code(at: 0))
            let provider = PhoneAuthProvider.provider(auth: auth)
            let enrollmentID = try await provider.verifyPhoneNumber(Self.ann, multiFactorSession: try await user.multiFactor.session())
            let enrollment = PhoneMultiFactorGenerator.assertion(
                with: provider.credential(withVerificationID: enrollmentID, verificationCode: try await texts.code(at: 0, to: Self.ann)))
            #expect(enrollment.factorID == "phone" && "\(enrollment)" == "MultiFactorAssertion(phone)")
            try await user.multiFactor.enroll(with: enrollment, displayName: "Nia's phone")
            let factor = try #require(user.multiFactor.enrolledFactors.first as? PhoneMultiFactorInfo)
            #expect(factor.factorID == PhoneMultiFactorInfo.PhoneMultiFactorID && factor.phoneNumber == Self.ann)
            #expect(factor.displayName == "Nia's phone")
            #expect(try await user.getIDTokenResult().signInSecondFactor == "phone")
            let twice = await #expect(throws: AuthError.self) {
                try await provider.verifyPhoneNumber(Self.ann, multiFactorSession: try await user.multiFactor.session())
            }
            #expect(twice?.code == .secondFactorAlreadyEnrolled)
            try auth.signOut()

            let challenge = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "nia@example.com", password: "nia's password") }
            let resolver = try #require(challenge?.resolver)
            #expect(challenge?.code == .secondFactorRequired && auth.currentUser == nil)
            let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
            #expect(resolver.hints.count == 1 && hint.uid == factor.uid && hint.phoneNumber == "+*******0101")
            let verificationID = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            let code = try await texts.code(at: 1, to: Self.ann)
            let wrong = await #expect(throws: AuthError.self) {
                try await resolver.resolveSignIn(
                    with: PhoneMultiFactorGenerator.assertion(
                        with: provider.credential(withVerificationID: verificationID, verificationCode: code == "000000" ? "111111" : "000000")))
            }
            #expect(wrong?.code == .invalidVerificationCode)
            let signedIn = try await resolver.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: verificationID, verificationCode: code)))
            #expect(signedIn.user.uid == user.uid && auth.currentUser === signedIn.user)
            #expect(try await signedIn.user.getIDTokenResult().signInSecondFactor == "phone")
            // A sign-in's session does not start an enrollment, nor an enrollment's a challenge.
            let misused = await #expect(throws: AuthError.self) {
                try await provider.verifyPhoneNumber(with: hint, multiFactorSession: try await signedIn.user.multiFactor.session())
            }
            #expect(misused?.code == .invalidMultiFactorSession)
        }
    }
}
