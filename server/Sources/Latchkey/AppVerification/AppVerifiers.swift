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
    /// For the start-up line: which proofs are checked, or that app verification is off (every text request admitted,
    /// held back by the abuse limits alone).
    var summary: String {
        let checks = [apns.map { _ in "APNs" }, captcha.map { $0.provider.rawValue }].compactMap { $0 }
        return checks.isEmpty ? "app verification is off" : checks.joined(separator: ", ")
    }
}
