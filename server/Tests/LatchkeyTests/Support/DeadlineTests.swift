import Foundation
import Latchkey
import Testing

/// `withDeadline` bounds the wait even for work that ignores its cancellation, as postgres-nio's `withConnection` can
/// when PostgreSQL goes away under it.
@Suite struct DeadlineTests {
    @Test func anAnswerWithinTheDeadlineIsReturned() async throws {
        #expect(try await withDeadline(seconds: 5) { 42 } == 42)
        await #expect(throws: CocoaError.self) { try await withDeadline(seconds: 5) { () -> Int in throw CocoaError(.featureUnsupported) } }
    }

    /// Before, the deadline raced the work in a task group, which waits for every child: this test hung there.
    @Test(.timeLimit(.minutes(1))) func workThatIgnoresCancellationIsLeftBehindAtTheDeadline() async throws {
        let release = Gate()
        let finished = Gate()
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(seconds: 1) { () -> Int in
                await release.wait()  // not cancellable: only the test opens it
                finished.open()
                return 1
            }
        }
        #expect(!finished.isOpen, "the deadline answered while the work was still suspended")
        release.open()
    }
}
