import Foundation
import Testing
@testable import LatchkeyAuth

/// `isSignIn(withEmailLink:)` and the code `signIn(withEmail:link:)` reads, for every form a link reaches an app in.
@Suite struct EmailActionLinkTests {
    static let action = "https://auth.example.com/__/auth/action?apiKey=k&mode=signIn&oobCode=C0DE&continueUrl=https%3A%2F%2Fapp.example.com%2Fdone&lang=en"
    static let auth = Auth(serviceURL: URL(fileURLWithPath: "/"), apiKey: "k", persistence: MemoryUserPersistence())

    static func encoded(_ link: String) -> String {
        link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? link
    }

    static let signInLinks: [String] = [
        action,
        // Firebase Hosting's app link wrapping the action link.
        "https://auth.example.com/__/auth/links?link=\(encoded(action))",
        // A legacy Dynamic Link, and the same link as iOS hands it over in `deep_link_id`.
        "https://example.page.link/?link=\(encoded(action))&apn=com.example&ibi=com.example.ios",
        "com.example.ios://google/link/?deep_link_id=\(encoded("https://example.page.link/?link=\(encoded(action))&ibi=com.example.ios"))",
        "com.example.ios://google/link/?deep_link_id=\(encoded(action))",
        "https://example.page.link/?link=\(encoded("https://app.example.com/?deep_link_id=\(encoded(action))"))",
        // The action link's parameters on the app's own URL, as the emulator's redirect delivers them.
        "https://app.example.com/finish?apiKey=k&oobCode=C0DE&mode=signIn&lang=en",
        "  \(action)\n",
    ]

    @Test(arguments: signInLinks) func recognisesASignInLinkInEveryForm(_ link: String) throws {
        #expect(Self.auth.isSignIn(withEmailLink: link))
        #expect(try #require(EmailActionLink(link)).code == "C0DE")
    }

    static let otherLinks: [String] = [
        "",
        "not a link",
        "https://app.example.com/done",
        action.replacingOccurrences(of: "mode=signIn", with: "mode=resetPassword"),
        action.replacingOccurrences(of: "oobCode=C0DE", with: "oobCode="),
        action.replacingOccurrences(of: "&oobCode=C0DE", with: ""),
        "https://auth.example.com/__/auth/links?link=https%3A%2F%2Fapp.example.com%2F",
    ]

    @Test(arguments: otherLinks) func refusesAnythingElse(_ link: String) {
        #expect(!Self.auth.isSignIn(withEmailLink: link))
    }

    @Test func readsTheModeAndContinueURLOfOtherActions() throws {
        let reset = try #require(EmailActionLink(Self.action.replacingOccurrences(of: "mode=signIn", with: "mode=resetPassword")))
        #expect(reset.mode == "resetPassword" && !reset.isSignIn && reset.continueURL == "https://app.example.com/done")
    }
}
