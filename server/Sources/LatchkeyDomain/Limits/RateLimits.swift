/// How often one subject (an email address, a client IP) may do one thing, over one or more windows.
package struct RateLimits: Sendable, Equatable {
    /// What is limited, and by whom it is counted.
    package enum Rule: String, Sendable, CaseIterable {
        case sendPerEmail
        case sendPerIP
        case completePerIP
        case signUpPerIP
        /// Failed password sign-ins, per client IP and per address.
        case passwordPerIP
        case passwordPerEmail
        /// Wrong second-factor codes, per account, across its challenges.
        case secondFactorPerAccount
        /// `accounts:verifyClient` calls, each of which makes a silent push, per client IP.
        case verifyClientPerIP
        /// Texted codes: per number, per client IP, per country calling code (SMS pumping goes through one premium
        /// prefix), and the whole service's budget, which second-factor challenges of enrolled accounts do not count against.
        case textPerNumber
        case textPerIP
        case textPerCallingCode
        case textBudget
        /// Counted in memory by `APIKeyQuota`, not by windows here.
        case apiKeyPerMinute

        /// Whether the subject is a client IP, counted by its network for IPv6 (`RateLimits.ipv6PrefixLength`).
        var isPerIP: Bool { rawValue.hasSuffix("PerIP") }
    }

    /// At most `limit` attempts in `seconds` from the first attempt of the window: the window rolls with the
    /// subject's own attempts, rather than starting on the clock's minutes.
    package struct Window: Sendable, Equatable {
        package var limit: Int
        package var seconds: Int

        package init(limit: Int, seconds: Int) {
            self.limit = limit
            self.seconds = seconds
        }
    }

    package var windows: [Rule: [Window]]
    /// IPv6 clients are counted by network: one host commonly holds a whole /64 and can rotate through it.
    package var ipv6PrefixLength: Int

    /// The defaults: one email a minute, 5 an hour and 20 a day per address; 10 sends and 30 completions per IP in
    /// 5 minutes; 20 sign-ups per IP an hour; 30 failed password sign-ins per IP in 5 minutes and 10 per address in
    /// 15 minutes; 10 wrong second-factor codes per account an hour and 30 a day; 10 `verifyClient` calls per IP in
    /// 5 minutes and 50 a day; one text a minute, 5 an hour and 10 a day per number; 10 texts per IP in 5 minutes and 50
    /// a day; 200 texts per calling code an hour and 1,000 a day; 2,000 texts a day in all.
    package static let standard = RateLimits(windows: [
        .sendPerEmail: [Window(limit: 1, seconds: 60), Window(limit: 5, seconds: 3600), Window(limit: 20, seconds: 86_400)],
        .sendPerIP: [Window(limit: 10, seconds: 300)],
        .completePerIP: [Window(limit: 30, seconds: 300)],
        .signUpPerIP: [Window(limit: 20, seconds: 3600)],
        .passwordPerIP: [Window(limit: 30, seconds: 300)],
        .passwordPerEmail: [Window(limit: 10, seconds: 900)],
        .secondFactorPerAccount: [Window(limit: 10, seconds: 3600), Window(limit: 30, seconds: 86_400)],
        .verifyClientPerIP: [Window(limit: 10, seconds: 300), Window(limit: 50, seconds: 86_400)],
        .textPerNumber: [Window(limit: 1, seconds: 60), Window(limit: 5, seconds: 3600), Window(limit: 10, seconds: 86_400)],
        .textPerIP: [Window(limit: 10, seconds: 300), Window(limit: 50, seconds: 86_400)],
        .textPerCallingCode: [Window(limit: 200, seconds: 3600), Window(limit: 1000, seconds: 86_400)],
        .textBudget: [Window(limit: 2000, seconds: 86_400)],
    ])

    package init(windows: [Rule: [Window]], ipv6PrefixLength: Int = 64) {
        self.windows = windows
        self.ipv6PrefixLength = ipv6PrefixLength
    }
}
