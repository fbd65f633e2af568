/// A refusal because a rate limit was reached; `retryAfter` is when the window that refused ends, in seconds.
package struct RateLimited: Error, Sendable, Equatable {
    package let rule: RateLimits.Rule
    package let retryAfter: Int

    package init(rule: RateLimits.Rule, retryAfter: Int) {
        self.rule = rule
        self.retryAfter = retryAfter
    }
}
