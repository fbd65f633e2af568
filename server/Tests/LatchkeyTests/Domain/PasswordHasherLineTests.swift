import Foundation
import HummingbirdBcrypt
import Latchkey
import LatchkeyDomain
import Testing

/// The line of `PasswordHasher` (`PasswordHashingQueue`) as its callers see it.
@Suite struct PasswordHasherLineTests {
    /// A check whose request is cancelled while it waits leaves the line at once, and the thread, once free, goes to
    /// the next in line rather than to the cancelled one (which would hold it for ever).
    @Test func aCancelledWaitLeavesTheLine() async throws {
        var limits = PasswordHashingLimits()
        limits.concurrency = 1
        limits.checksPerAddress = 1
        limits.maximumWait = .seconds(30)
        let hasher = PasswordHasher(cost: 4, secret: ServerSecret(material: Data(repeating: 4, count: 32)), limits: limits)
        let busy = try #require(EmailAddress("busy@example.com"))
        // bcrypt cost 14: one to several seconds of the one thread, which the steps below take milliseconds of.
        let slow = Bcrypt.hash("slow", cost: 14)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Tried again while the probe below holds the address's one place.
                while true {
                    do { return #expect(try await hasher.verify("slow", against: slow, for: busy)) } catch is PasswordHashingBusy {}
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            // The address's one place is taken once the slow check runs: then the thread is busy.
            var polls = 0
            while try await !Self.isBusy(hasher, busy), polls < 4000 {
                try await Task.sleep(for: .milliseconds(5))
                polls += 1
            }
            let waiting = Task { try await hasher.hash("waits in line") }
            try await Task.sleep(for: .milliseconds(50))
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            // Refused at once, while the slow check still holds the thread.
            #expect(try await Self.isBusy(hasher, busy))
            let next = try await hasher.hash("next in line")
            #expect(Bcrypt.verify("next in line", hash: next))
            try await group.waitForAll()
        }
    }

    /// Whether a check of `address`'s password is refused for want of a place.
    static func isBusy(_ hasher: PasswordHasher, _ address: EmailAddress) async throws -> Bool {
        do {
            try await hasher.verifyDecoy("probe", for: address)
            return false
        } catch let busy as PasswordHashingBusy {
            return busy.reason == .addressBusy
        }
    }
}
