import Foundation
import HummingbirdTesting
import Latchkey
import Testing

/// The short code a sign-in email shows beside its link (`emailLink.typedCode`), through the HTTP API.
@Suite struct TypedCodeSignInTests {
    static var settings: [String: Any] { ["emailLink.typedCode": true, "rateLimits.sendPerEmail": [] as [Any]] }

    /// The typed code the `index`-th email shows.
    static func typedCode(_ mailbox: Mailbox, at index: Int) async throws -> String {
        let message = try await mailbox.waitForMessages(index + 1)[index].replacingOccurrences(of: "=\r\n", with: "")
        // Read after the line that offers it: random header values and links may hold the same shape.
        let offer = try #require(message.range(of: "Or type this code"))
        let range = try #require(message.range(of: "[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", options: .regularExpression, range: offer.upperBound..<message.endIndex))
        return String(message[range])
    }

    static func errorCode(_ response: TestResponse) -> String? {
        response.errorMessage?.components(separatedBy: " : ").first
    }

    /// The typed code signs in, as the user types it, and spends the link with it; a used link spends the code.
    @Test func theTypedCodeAndTheLinkSpendEachOther() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            try await client.sendLink(to: "alice@example.com")
            let typed = try await Self.typedCode(mailbox, at: 0)
            let signedIn = try await client.complete(email: "alice@example.com", code: typed.lowercased().replacingOccurrences(of: "-", with: " "))
            #expect(try signedIn.json["idToken"] is String, "\(signedIn.text)")
            #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: try await mailbox.code(at: 0))) == "INVALID_OOB_CODE")

            try await client.sendLink(to: "alice@example.com")
            #expect(try await client.complete(email: "alice@example.com", code: try await mailbox.code(at: 1)).status == .ok)
            #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: try await Self.typedCode(mailbox, at: 1))) == "INVALID_OOB_CODE")
        }
    }

    /// A typed code matches only its own address; five wrong typed codes for an address kill every live typed code of
    /// it, while its links, which need no such budget, still sign in; a request made after that starts afresh.
    @Test func wrongTypedCodesKillEveryCodeOfTheAddress() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            for email in ["alice@example.com", "alice@example.com", "bob@example.com"] { try await client.sendLink(to: email) }
            let typed = try await Self.typedCode(mailbox, at: 0)
            #expect(Self.errorCode(try await client.complete(email: "bob@example.com", code: typed)) == "INVALID_OOB_CODE")
            let wrong = typed == "2222-2222" ? "3333-3333" : "2222-2222"
            for _ in 0..<5 { #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: wrong)) == "INVALID_OOB_CODE") }
            #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: typed)) == "INVALID_OOB_CODE")
            #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: try await Self.typedCode(mailbox, at: 1))) == "INVALID_OOB_CODE")
            #expect(try await client.complete(email: "alice@example.com", code: try await mailbox.code(at: 1)).status == .ok)
            // Bob's code counted one miss from the wrong address, and lives.
            #expect(try await client.complete(email: "bob@example.com", code: try await Self.typedCode(mailbox, at: 2)).status == .ok)
            try await client.sendLink(to: "alice@example.com")
            #expect(try await client.complete(email: "alice@example.com", code: try await Self.typedCode(mailbox, at: 3)).status == .ok)
        }
    }

    /// The link and the typed code raced: one signs in, the other finds the request spent.
    @Test func aRaceOfTheLinkAndTheTypedCodeHasOneWinner() async throws {
        try await withApp(Self.settings, testing: .live) { client, _, mailbox in
            for round in 0..<5 {
                try await client.sendLink(to: "alice@example.com")
                let (link, typed) = (try await mailbox.code(at: round), try await Self.typedCode(mailbox, at: round))
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for code in [link, typed] {
                        group.addTask { Int(try await client.complete(email: "alice@example.com", code: code).status.code) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.sorted() == [200, 400], "round \(round)")
            }
        }
    }

    /// Turned off, emails show no code, and a code-shaped `oobCode` is just an unknown code that counts against nothing.
    @Test func withoutTypedCodesNothingIsShownOrCounted() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(to: "alice@example.com")
            let message = try await mailbox.waitForMessages(1)[0]
            #expect(message.range(of: "[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", options: .regularExpression) == nil)
            for _ in 0..<5 { #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: "ABCD-EFGH")) == "INVALID_OOB_CODE") }
            #expect(try await client.complete(email: "alice@example.com", code: try await mailbox.code(at: 0)).status == .ok)
        }
    }
}
