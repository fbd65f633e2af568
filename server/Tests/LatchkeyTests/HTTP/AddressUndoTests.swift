import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// The undo (`RECOVER_EMAIL`) an address change mails to the old address: it takes the account back from whoever
/// changed it, but it is no way around the owner's second factor.
@Suite struct AddressUndoTests {
    static var settings: [String: Any] { ["mfa.state": "ENABLED", "rateLimits.sendPerEmail": [] as [Any], "rateLimits.completePerIP": [] as [Any]] }

    /// The `oobCode` of the newest of the first `count` or more mails that is for `mode` (`recoverEmail`, …), waiting
    /// (bounded) for it.
    static func code(_ mailbox: Mailbox, mode: String, count: Int) async throws -> String {
        for _ in 0..<200 {
            let links = try await mailbox.waitForMessages(count).compactMap { $0.contains("/__/auth/") ? try Mailbox.link(in: $0) : nil }
            if let link = links.last(where: { $0.queryItems?.first { $0.name == "mode" }?.value == mode }) {
                return try #require(link.queryItems?.first { $0.name == "oobCode" }?.value)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("no mail for \(mode) in \(mailbox.directory.path)")
        return ""
    }

    @Test func anUndoKeepsTheFactorsEnrolledBeforeTheChangeAndDropsTheLaterOnes() async throws {
        let clock = FixedClock(Date())
        try await withApp(Self.settings, clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code()).json
            let (own, enrolled) = try await client.enrollAuthenticator(idToken: try #require(alice["idToken"] as? String), at: clock.now)
            clock.advance(by: 60)
            let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(try #require(enrolled["idToken"] as? String))","newEmail":"mallory@example.net"}"#
            #expect(try await client.post("/v1/accounts:sendOobCode", json: change).status == .ok)
            // Mailed so far: the sign-in link, the authenticator's notice, the change.
            let move = try await Self.code(mailbox, mode: "verifyAndChangeEmail", count: 3)
            #expect(try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(move)"}"#).status == .ok)

            // Whoever changed the address signs in there and adds an authenticator of their own.
            clock.advance(by: 60)
            try await client.sendLink(to: "mallory@example.net")
            let challenge = try await client.complete(email: "mallory@example.net", code: try await Self.code(mailbox, mode: "signIn", count: 5)).json
            let pending = try #require(challenge["mfaPendingCredential"] as? String, "\(challenge)")
            let passed = try await client.finishSecondFactor(pending, factorID: own.factorID, code: own.code(at: clock.now)).json
            let (intruders, _) = try await client.enrollAuthenticator(idToken: try #require(passed["idToken"] as? String), at: clock.now, name: "Mallory")

            // The owner applies the undo from the old mailbox, then resets the password from it.
            clock.advance(by: 60)
            let mailed = mailbox.messages().count
            let undo = try await Self.code(mailbox, mode: "recoverEmail", count: mailed)
            #expect(try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(undo)"}"#).status == .ok)
            #expect(try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#).status == .ok)
            let reset = #"{"oobCode":"\#(try await Self.code(mailbox, mode: "resetPassword", count: mailed + 1))","newPassword":"new password"}"#
            #expect(try await client.post("/v1/accounts:resetPassword", json: reset).status == .ok)

            // A password sign-in stops at the owner's own authenticator; the intruder's is gone.
            let signIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"alice@example.com","password":"new password"}"#).json
            #expect(signIn["idToken"] == nil)
            let factors = (signIn["mfaInfo"] as? [[String: Any]] ?? []).compactMap { $0["mfaEnrollmentId"] as? String }
            #expect(factors == [own.factorID])
            #expect(!factors.contains(intruders.factorID))
        }
    }
}
