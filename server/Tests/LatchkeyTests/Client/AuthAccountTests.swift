import Foundation
import LatchkeyAuth
import LatchkeyDomain
import Testing

/// LatchkeyAuth's password, anonymous, linking and email-action calls against the real application, in process.
@Suite struct AuthAccountTests {
    static var settings: [String: Any] { ["rateLimits.sendPerEmail": [] as [Any], "rateLimits.completePerIP": [] as [Any]] }
    static let appLink = ActionCodeSettings(url: URL(string: "https://app.example.com/finish"), handleCodeInApp: true)

    @Test func passwordAccounts() async throws {
        try await withApp(Self.settings) { client, _, _ in
            let auth = RouterTransport(client).auth()
            let created = try await auth.createUser(withEmail: "dana@example.com", password: "correct horse")
            #expect(created.additionalUserInfo?.isNewUser == true && created.user.email == "dana@example.com" && !created.user.isEmailVerified)
            #expect(created.user.providerData.map(\.providerID) == ["password"])
            try auth.signOut()
            #expect(auth.currentUser == nil)

            let signedIn = try await auth.signIn(withEmail: "dana@example.com", password: "correct horse")
            #expect(signedIn.user.uid == created.user.uid && signedIn.additionalUserInfo?.isNewUser == false)
            let wrong = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "dana@example.com", password: "wrong horse") }
            #expect(wrong?.code == .invalidCredential)
            let taken = await #expect(throws: AuthError.self) { try await auth.createUser(withEmail: "dana@example.com", password: "another one") }
            #expect(taken?.code == .emailAlreadyInUse)
            let weak = await #expect(throws: AuthError.self) { try await auth.createUser(withEmail: "eli@example.com", password: "123") }
            #expect(weak?.code == .weakPassword && weak?.message?.isEmpty == false)
            // With enumeration protection on (the default), the answer says nothing about the address.
            #expect(try await auth.fetchSignInMethods(forEmail: "dana@example.com").isEmpty)
            // A password is changed with updatePassword, never linked over.
            let linked = await #expect(throws: AuthError.self) {
                try await signedIn.user.link(with: EmailAuthProvider.credential(withEmail: "dana@example.com", password: "new horse"))
            }
            #expect(linked?.code == .providerAlreadyLinked)
        }
    }

    @Test func fetchSignInMethodsWithoutEnumerationProtection() async throws {
        try await withApp(Self.settings.merging(["emailEnumerationProtection": false]) { $1 }) { client, _, _ in
            let auth = RouterTransport(client).auth()
            _ = try await auth.createUser(withEmail: "eve@example.com", password: "eve's password")
            #expect(try await auth.fetchSignInMethods(forEmail: "eve@example.com") == ["password"])
            #expect(try await auth.fetchSignInMethods(forEmail: "nobody@example.com").isEmpty)
            let invalid = await #expect(throws: AuthError.self) { try await auth.fetchSignInMethods(forEmail: "not an address") }
            #expect(invalid?.code == .invalidEmail)
        }
    }

    /// An anonymous user keeps its uid when it links a password, and stops being anonymous; unlinking removes the password.
    @Test func anonymousUpgradeLinkAndUnlink() async throws {
        try await withApp(Self.settings) { client, _, _ in
            let auth = RouterTransport(client).auth()
            let anonymous = try await auth.signInAnonymously()
            #expect(anonymous.user.isAnonymous && anonymous.user.email == nil && anonymous.additionalUserInfo?.isNewUser == true)
            #expect(try await auth.signInAnonymously().user === anonymous.user)
            #expect(try await anonymous.user.getIDTokenResult().signInProvider == "anonymous")

            try await anonymous.user.link(with: EmailAuthProvider.credential(withEmail: "finn@example.com", password: "finn's password"))
            let user = try #require(auth.currentUser)
            #expect(user === anonymous.user && !user.isAnonymous && user.email == "finn@example.com" && user.providerData.map(\.providerID) == ["password"])

            let other = RouterTransport(client).auth()
            #expect(try await other.signIn(withEmail: "finn@example.com", password: "finn's password").user.uid == user.uid)

            // Unlinking `password` removes the password; the address stays, for email links (Firebase's `password` provider).
            try await user.unlink(fromProvider: "password")
            let removed = await #expect(throws: AuthError.self) { try await other.signIn(withEmail: "finn@example.com", password: "finn's password") }
            #expect(removed?.code == .invalidCredential)
            let unknown = await #expect(throws: AuthError.self) { try await user.unlink(fromProvider: "google.com") }
            #expect(unknown?.code == .noSuchProvider)
        }
    }

    /// Re-authentication renews the session for the same user and refuses someone else's credential.
    @Test func reauthenticateUpdatePasswordAndDelete() async throws {
        try await withApp(Self.settings) { client, _, _ in
            let auth = RouterTransport(client).auth()
            let user = try await auth.createUser(withEmail: "gus@example.com", password: "first password").user
            _ = try await auth.createUser(withEmail: "hal@example.com", password: "hal's password")
            let hal = try #require(auth.currentUser)
            let mismatch = await #expect(throws: AuthError.self) {
                try await hal.reauthenticate(with: EmailAuthProvider.credential(withEmail: "gus@example.com", password: "first password"))
            }
            #expect(mismatch?.code == .userMismatch)

            let gus = try await auth.signIn(withEmail: "gus@example.com", password: "first password").user
            #expect(gus.uid == user.uid)
            try await gus.reauthenticate(with: EmailAuthProvider.credential(withEmail: "gus@example.com", password: "first password"))
            try await gus.updatePassword(to: "second password")
            #expect(auth.currentUser === gus)
            _ = try await gus.getIDToken(forcingRefresh: true)  // the session goes on with the tokens the change answered
            await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "gus@example.com", password: "first password") }
            let again = try await auth.signIn(withEmail: "gus@example.com", password: "second password").user
            try await again.delete()
            #expect(auth.currentUser == nil)
            let deleted = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "gus@example.com", password: "second password") }
            #expect(deleted?.code == .invalidCredential)
        }
    }

    /// Reset: the code is checked without spending it, then sets the password once; verification and an address change
    /// apply with `applyActionCode`.
    @Test func emailActions() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let auth = RouterTransport(client).auth()
            let user = try await auth.createUser(withEmail: "ivy@example.com", password: "old password").user
            try await auth.sendPasswordReset(withEmail: "ivy@example.com")
            let reset = try await mailbox.code(at: 0)
            let info = try await auth.checkActionCode(reset)
            #expect(info.operation == .passwordReset && info.email == "ivy@example.com")
            #expect(try await auth.verifyPasswordResetCode(reset) == "ivy@example.com")
            try await auth.confirmPasswordReset(withCode: reset, newPassword: "new password")
            let spent = await #expect(throws: AuthError.self) { try await auth.confirmPasswordReset(withCode: reset, newPassword: "newer password") }
            #expect(spent?.code == .invalidActionCode)
            // The reset ended every session, this device's too.
            let ended = await #expect(throws: AuthError.self) { try await user.getIDToken(forcingRefresh: true) }
            #expect(ended?.code == .invalidUserToken || ended?.code == .userTokenExpired)
            #expect(auth.currentUser == nil)

            let ivy = try await auth.signIn(withEmail: "ivy@example.com", password: "new password").user
            try await ivy.sendEmailVerification()
            try await auth.applyActionCode(try await mailbox.code(at: 1))
            try await ivy.reload()
            #expect(ivy.isEmailVerified)

            try await ivy.sendEmailVerification(beforeUpdatingEmail: "ivy@example.net", actionCodeSettings: Self.appLink)
            let change = try await mailbox.code(at: 2)
            let changeInfo = try await auth.checkActionCode(change)
            #expect(changeInfo.operation == .verifyAndChangeEmail && changeInfo.email == "ivy@example.net" && changeInfo.previousEmail == "ivy@example.com")
            try await auth.applyActionCode(change)
            #expect(try await auth.signIn(withEmail: "ivy@example.net", password: "new password").user.email == "ivy@example.net")
            let expired = await #expect(throws: AuthError.self) { try await auth.applyActionCode("not-a-code") }
            #expect(expired?.code == .invalidActionCode)
        }
    }
}
