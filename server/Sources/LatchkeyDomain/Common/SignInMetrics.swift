import Metrics

/// The counters the domain keeps (codes, emails, texts, rate-limit refusals, sign-ups, passwords stripped), through
/// swift-metrics' API alone: the app gives the factory of `ServiceMetrics`' Prometheus registry, and a service built
/// without one counts nowhere.
package struct SignInMetrics: Sendable {
    /// How a sign-in code ended up.
    package enum CodeOutcome: String, Sendable {
        case issued, completed, expired, mismatched, invalid
    }

    /// What happened to an email or a text in the outbox.
    package enum DeliveryOutcome: String, Sendable {
        case queued, sent, retried, failed
    }

    private let factory: any MetricsFactory

    package init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
    }

    package func count(code outcome: CodeOutcome) {
        Metrics.Counter(label: "latchkey_sign_in_codes_total", dimensions: [("outcome", outcome.rawValue)], factory: factory).increment()
    }

    package func count(email outcome: DeliveryOutcome, by amount: Int = 1) {
        Metrics.Counter(label: "latchkey_emails_total", dimensions: [("outcome", outcome.rawValue)], factory: factory).increment(by: amount)
    }

    package func count(text outcome: DeliveryOutcome, by amount: Int = 1) {
        Metrics.Counter(label: "latchkey_texts_total", dimensions: [("outcome", outcome.rawValue)], factory: factory).increment(by: amount)
    }

    package func countRejection(by rule: RateLimits.Rule) {
        Metrics.Counter(label: "latchkey_rate_limit_rejections_total", dimensions: [("rule", rule.rawValue)], factory: factory).increment()
    }

    /// `how`: `email_link`, `password`, `anonymous` or `admin`.
    package func countSignUp(_ how: String) {
        Metrics.Counter(label: "latchkey_sign_ups_total", dimensions: [("method", how)], factory: factory).increment()
    }

    package func countPasswordStrip() {
        Metrics.Counter(label: "latchkey_passwords_stripped_total", factory: factory).increment()
    }
}
