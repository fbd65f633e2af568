import Foundation
import Latchkey
import LatchkeyDomain

/// Values the conformance suites share.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let alice = EmailAddress("alice@example.com")!

    static func account(_ id: String, _ email: String?, verified: Bool = false) -> Account {
        Account(id: id, email: email.flatMap(EmailAddress.init), isEmailVerified: verified, validSince: now, createdAt: now)
    }

    static func pending(_ hash: UInt8, email: EmailAddress = alice, minutesAgo: Double = 0) -> PendingRequest {
        let created = now.addingTimeInterval(-minutesAgo * 60)
        return PendingRequest(
            codeHash: Data(repeating: hash, count: 32), email: email, createdAt: created, expiresAt: created.addingTimeInterval(600),
            language: .english, continueURL: "https://app.example.com")
    }

    static func message(_ byte: UInt8, at date: Date = now) -> OutboxMessage {
        OutboxMessage(recipient: .email(alice), format: .mime, sealedContent: Data([byte]), createdAt: date)
    }
}

/// The conflict a write throws, or nil when it succeeds.
func conflict(of write: () async throws -> Void) async throws -> AccountConflict? {
    do {
        try await write()
        return nil
    } catch let conflict as AccountConflict {
        return conflict
    }
}
