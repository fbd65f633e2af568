import LatchkeyDomain
import Logging

/// The outside parties `AppVerification` asks, made from `appVerification`: APNs for an iOS app's silent push and a
/// captcha provider's siteverify, each absent when its section is.
package struct AppVerifiers: Sendable {
    let push: (any SilentPushSender)?
    let captcha: (any CaptchaVerifier)?

    package init(_ configuration: AppConfiguration, clock: any WallClock, logger: Logger) {
        push = configuration.appVerification.apns.map { APNsPushSender(settings: $0, clock: clock, logger: logger) }
        captcha = configuration.appVerification.captcha.map {
            SiteverifyCaptchaVerifier(settings: $0, authorizedDomains: configuration.authorizedDomains, logger: logger)
        }
    }
}

extension AppVerification {
    /// App verification as `configuration` sets it up, over `verifiers`: the pushes go to the apps of `apps.ios`, and a
    /// request without proof passes in development mode only. `AppServices` wires the service's one through this.
    package init(
        _ configuration: AppConfiguration, store: any Store, secret: ServerSecret, clock: any WallClock, limiter: RateLimiter, verifiers: AppVerifiers
    ) {
        self.init(
            store: store, secret: secret, clock: clock, limiter: limiter, push: verifiers.push, captcha: verifiers.captcha,
            iosBundleIDs: configuration.apps.ios.map(\.bundleID), admitsRequestsWithoutProof: configuration.mode == .development)
    }
}

extension AppVerificationConfiguration {
    /// Says at start-up which proofs are checked, or that app verification is off: every request for a text is then
    /// admitted, held back by the abuse limits alone. A line of its own, since the start-up line is full.
    func logSummary(_ logger: Logger) {
        let checks = [apns.map { _ in "APNs" }, captcha.map { $0.provider.rawValue }].compactMap { $0 }
        if checks.isEmpty {
            logger.info("App verification is off: every request for a text is admitted, behind the abuse limits alone")
        } else {
            logger.info("App verification on", metadata: ["appVerification": "\(checks.joined(separator: ", "))"])
        }
    }
}
