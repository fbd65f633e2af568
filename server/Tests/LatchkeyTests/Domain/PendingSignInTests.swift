import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// What a challenged sign-in keeps survives the store's text form, cleared fields included, and applies as changes.
@Suite struct PendingSignInTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aKeptSignInReadsBackAsItWasWritten() throws {
        var pending = PendingSignIn()
        pending.isEmailVerified = .init(value: true)
        pending.displayName = .init(value: "Alice")
        pending.photoURL = .init(value: nil)
        pending.identity = Identity(
            providerID: "oidc.mock", providerUserID: "a-1", accountID: "alice", email: EmailAddress("alice@example.com"), isEmailVerified: true,
            displayName: "Alice", rawProfile: #"{"sub":"a-1"}"#, createdAt: now)
        pending.replacesProviderIdentities = true
        let read = try #require(PendingSignIn.decode(PendingSignIn.encode(pending), accountID: "alice"))
        #expect(read == pending)
        #expect(read.email == nil && read.photoURL == .init(value: nil))
    }

    @Test func unreadableTextKeepsNothingButAChallengeFromBeforeTheColumnKeepsNoChanges() {
        #expect(PendingSignIn.decode("not json", accountID: "alice") == nil)
        #expect(PendingSignIn.decode(#"{"email":{"value":"not an address"},"replacesProviderIdentities":false}"#, accountID: "alice") == nil)
        #expect(PendingSignIn.decode(nil, accountID: "alice") == PendingSignIn())
    }
}
