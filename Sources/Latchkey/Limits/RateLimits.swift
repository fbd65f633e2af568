/// How often one subject (an email address, a client IP) may do one thing, over one or more windows.
package struct RateLimits: Sendable, Equatable {
    /// What is limited, and by whom it is counted.
    package enum Rule: String, Sendable, CaseIterable {
        case sendPerEmail
        case sendPerIP
        case completePerIP
        /// Counted in memory by `APIKeyQuota`, not by windows here.
        case apiKeyPerMinute
    }

    /// At most `limit` attempts in each fixed window of `seconds`.
    package struct Window: Sendable, Equatable {
        package var limit: Int
        package var seconds: Int

        package init(limit: Int, seconds: Int) {
            self.limit = limit
            self.seconds = seconds
        }
    }

    package var windows: [Rule: [Window]]

    /// The defaults: one email a minute, 5 an hour and 20 a day per address; 10 sends and 30 completions per
    /// IP in 5 minutes.
    package static let standard = RateLimits(windows: [
        .sendPerEmail: [Window(limit: 1, seconds: 60), Window(limit: 5, seconds: 3600), Window(limit: 20, seconds: 86_400)],
        .sendPerIP: [Window(limit: 10, seconds: 300)],
        .completePerIP: [Window(limit: 30, seconds: 300)],
    ])

    package init(windows: [Rule: [Window]]) {
        self.windows = windows
    }
}
