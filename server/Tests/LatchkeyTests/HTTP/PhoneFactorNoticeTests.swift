import Foundation
import HTTPTypes
import Latchkey
import Testing

/// The owner's notices of phone second factors an admin sets and removes: they say a phone, not an authenticator app,
/// and show the number masked as a sign-in challenge does, never whole (the mailbox may be read by someone else); an
/// admin's enrollment ends no session, and its notice says none.
@Suite struct PhoneFactorNoticeTests {
    @Test func anAdminsPhoneFactorsAreToldByTheirMaskedNumbers() async throws {
        try await withApp(SecondFactorTests.enabled) { client, _, mailbox in
            let localID = try #require(try await SecondFactorTests.signIn(client, mailbox, message: 0)["localId"] as? String)
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            func update(_ mfa: String) async throws {
                let answer = try await client.post("/v1/accounts:update", json: #"{"localId":"\#(localID)","mfa":\#(mfa)}"#, key: nil, headers: admin)
                #expect(answer.status == .ok, "\(answer.text)")
            }
            try await update(#"{"enrollments":[{"phoneInfo":"+16505550101","displayName":"work phone"}]}"#)
            // Another phone in its place: the first one goes, the second comes.
            try await update(#"{"enrollments":[{"phoneInfo":"+442079460958"}]}"#)
            try await update("{}")
            _ = try await mailbox.waitForMessages(5)
            let notices = mailbox.readableMessages()
            #expect(notices[1].contains("Subject: A phone was added to your Latchkey account"))
            #expect(notices[1].contains(#"The phone number +*******0101 ("work phone") was added to the Latchkey account alice@example.com"#))
            #expect(notices[2].contains("Subject: A phone was removed from your Latchkey account"))
            #expect(notices[2].contains(#"The phone number +*******0101 ("work phone") was removed"#))
            #expect(notices[3].contains("Subject: A phone was added") && notices[3].contains("The phone number +********0958 was added"))
            #expect(notices[4].contains("Subject: Every second step of signing in was removed from your Latchkey account"))
            #expect(notices[4].contains("every second step of signing in (authenticator apps and phones)"))
            for notice in notices[1...] {
                #expect(!notice.contains("5550101") && !notice.contains("2079460958") && !notice.contains("authenticator was"))
                // An admin's change ends no session, so no notice of it says one ended.
                #expect(!notice.contains("signed out"))
            }
        }
    }
}
