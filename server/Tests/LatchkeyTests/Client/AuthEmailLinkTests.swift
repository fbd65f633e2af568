import Foundation
import LatchkeyAuth
import LatchkeyDomain
import Testing

/// LatchkeyAuth's email-link sign-in against the real application, in process.
@Suite struct AuthEmailLinkTests {
    static var settings: [String: Any] { ["emailLink.typedCode": true, "rateLimits.sendPerEmail": [] as [Any]] }
    static let appLink = ActionCodeSettings(url: URL(string: "https://app.example.com/finish"), handleCodeInApp: true)

    /// The sign-in link of the `index`-th email, as the app is opened with it.
    static func link(_ mailbox: Mailbox, at index: Int) async throws -> String {
        try #require(try Mailbox.link(in: try await mailbox.waitForMessages(index + 1)[index]).string)
    }

    /// The code the `index`-th email shows for typing (`ABCD-EFGH`).
    static func typedCode(_ mailbox: Mailbox, at index: Int) async throws -> String {
        let message = try await mailbox.waitForMessages(index + 1)[index]
        let match = try #require(message.firstMatch(of: /\b([2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4})\b/))
        return String(match.1)
    }

    @Test func oneDeviceSendsTheLinkAndSignsInWithIt() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let auth = RouterTransport(client).auth()
            var changes = auth.authStateChanges.makeAsyncIterator()
            let signedOut = await changes.next()
            #expect(signedOut.map { $0 == nil } == true)
            try await auth.sendSignInLink(toEmail: "alice@example.com", actionCodeSettings: Self.appLink)
            let link = try await Self.link(mailbox, at: 0)
            #expect(auth.isSignIn(withEmailLink: link))

            let result = try await auth.signIn(withEmail: "alice@example.com", link: link)
            #expect(result.additionalUserInfo?.isNewUser == true && result.additionalUserInfo?.providerID == "password")
            let user = try #require(auth.currentUser)
            #expect(user === result.user && user.email == "alice@example.com" && user.isEmailVerified && !user.isAnonymous)
            #expect(await changes.next()??.uid == user.uid)
            let token = try await user.getIDTokenResult()
            // As Firebase's tokens say for both ways of proving an address.
            #expect(token.signInProvider == "password" && token.subject == user.uid && token.claims["email"] as? String == "alice@example.com")

            // The link is spent: a second use is Firebase's invalidActionCode.
            let again = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "alice@example.com", link: link) }
            #expect(again?.code == .invalidActionCode && again?.serverCode == "INVALID_OOB_CODE")
        }
    }

    /// Asked for on one device, the link is opened on a second (which asks for the address); the first device's typed
    /// code then fails, as the link spent it. Then the other way round: the code typed on the first device wins.
    @Test func acrossTwoDevices() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let transport = RouterTransport(client)
            let (phone, laptop) = (transport.auth(), transport.auth())
            try await phone.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: Self.appLink)
            let signedIn = try await laptop.signIn(withEmail: "bob@example.com", link: try await Self.link(mailbox, at: 0))
            let spent = await #expect(throws: AuthError.self) {
                try await phone.signIn(withEmail: "bob@example.com", link: try await Self.typedCode(mailbox, at: 0))
            }
            #expect(spent?.code == .invalidActionCode && phone.currentUser == nil)

            try await phone.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: Self.appLink)
            let typed = try await Self.typedCode(mailbox, at: 1)
            let onPhone = try await phone.signIn(withEmail: "bob@example.com", link: typed.lowercased())
            #expect(onPhone.user.uid == signedIn.user.uid && onPhone.additionalUserInfo?.isNewUser == false)
            await #expect(throws: AuthError.self) { try await laptop.signIn(withEmail: "bob@example.com", link: try await Self.link(mailbox, at: 1)) }
        }
    }

    /// A link completed with another address than the one it was sent to is refused (Firebase's `INVALID_EMAIL`), and
    /// nobody is signed in.
    @Test func theLinkNeedsItsOwnAddress() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let auth = RouterTransport(client).auth()
            try await auth.sendSignInLink(toEmail: "carol@example.com", actionCodeSettings: Self.appLink)
            let link = try await Self.link(mailbox, at: 0)
            let error = await #expect(throws: AuthError.self) { try await auth.signIn(withEmail: "mallory@example.com", link: link) }
            #expect(error?.code == .invalidEmail && error?.message == "The email provided does not match the sign-in email address.")
            #expect(auth.currentUser == nil)
        }
    }
}
