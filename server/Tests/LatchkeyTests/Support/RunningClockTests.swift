import Foundation
import Testing

/// The clock of the tests that meet the OpenID Connect provider keeps up with the real time, which the provider signs
/// with, and still jumps ahead when a test says so.
@Suite struct RunningClockTests {
    @Test func itKeepsUpWithTheRealTimeAndJumpsAheadWhenMoved() async throws {
        let clock = RunningClock()
        let started = clock.now
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(clock.now.timeIntervalSince(started) >= 1)
        clock.advance(by: 600)
        #expect(clock.now.timeIntervalSince(Date()) > 599)
    }
}
