import Foundation
import Latchkey
import LatchkeyDomain

extension ActionCodeIssuer {
    /// An issuer as `buildApplication` makes one, for tests that assemble services by hand.
    static func forTests(
        _ configuration: AppConfiguration, store: any Store, tokens: any TokenIssuer, secret: ServerSecret, clock: any WallClock, limiter: RateLimiter
    ) -> ActionCodeIssuer {
        ActionCodeIssuer(
            store: store, authentication: Authentication(tokens: tokens), secret: secret, clock: clock, outbox: OutboxSignal(),
            publicURL: configuration.publicURL, lifetimes: ActionLifetimes(configuration.emailActions.lifetimes), enumerationProtection: true, recentLogin: 300, limiter: limiter)
    }
}
