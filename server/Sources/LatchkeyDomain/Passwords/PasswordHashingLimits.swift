import NIOCore

/// How much password hashing runs and waits at once (`security.passwordHash…`; see `SecurityConfiguration`).
///
/// A hash or check takes a tenth of a second or more by design. Without a bound, requests that hash faster than the
/// threads can would line up without end, and one address's concurrent attempts would hold every other sign-in behind
/// them; past these bounds a request is refused at once (`PasswordHashingBusy`, a 503) before anything is changed.
package struct PasswordHashingLimits: Sendable, Equatable {
    /// Hashes and checks that run at once: NIO's blocking pool runs them and has one thread per core.
    package var concurrency = NIOSingletons.blockingPoolThreadCountSuggestion
    /// How many more may wait for a thread, in the order they came.
    package var queueLength = 64
    /// How long one may wait for a thread.
    package var maximumWait = Duration.seconds(3)
    /// Checks of one address's password admitted at once, running or waiting: enough for a double submission, too few
    /// for one address's attempts to hold the threads.
    package var checksPerAddress = 2

    package init() {}
}
