import Foundation
import Logging

/// "This wasn't me": the owner of an address, from the link in a sign-in email (`SignInReport`), kills every
/// outstanding sign-in code of the address and stops new sign-in emails to it for a while (its cool-off), and can lift
/// that again from the same link; an operator can lift it too (`latchkey cool-off`). Other emails still go out: a
/// password reset or an undo is how the owner takes an account back.
///
/// While an address cools off, sign-in sends for it are dropped without a word (`LinkIssuer`), as the per-address limit
/// drops them, so the answer still tells nothing about the address.
package struct CoolOffs: Sendable {
    /// What a report link stands for right now.
    package struct Standing: Sendable, Equatable {
        package var report: SignInReport
        /// When the address's cool-off ends, if one is on.
        package var until: Date?
    }

    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    /// `emailLink.coolOffSeconds`.
    let duration: TimeInterval
    let limiter: RateLimiter

    package init(store: any Store, secret: ServerSecret, clock: any WallClock, duration: TimeInterval, limiter: RateLimiter) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.duration = duration
        self.limiter = limiter
    }

    /// The report `token` stands for and its address's cool-off, read without changing anything (mail scanners open
    /// every link); nil for a token this server did not make, or an old one.
    package func look(_ token: String) async throws -> Standing? {
        let now = clock.now
        guard let report = SignInReport(token: token, secret: secret, at: now) else { return nil }
        let until = try await store.read { try await $0.coolOff(for: report.email, at: now) }
        return Standing(report: report, until: until)
    }

    /// Kills the address's outstanding sign-in codes and starts its cool-off (again from now, if one was on).
    package func report(_ token: String, by caller: Caller, logger: Logger) async throws -> Standing? {
        let now = clock.now
        guard let report = SignInReport(token: token, secret: secret, at: now) else { return nil }
        let until = now.addingTimeInterval(duration)
        try await limiter.write(counting: caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester) { transaction in
            try await transaction.spendOutstandingRequests(for: report.email, action: .signIn, at: now)
            try await transaction.startCoolOff(for: report.email, until: until)
            try await transaction.record(
                AuditEvent(
                    .signInReported, at: now, email: report.email, requester: caller.requester,
                    detail: "cool-off until \(until.formatted(.iso8601))"))
        }
        logger.debug("Sign-in reported as not asked for: the address cools off", metadata: ["email": "\(report.email.redacted)"])
        return Standing(report: report, until: until)
    }

    /// Ends the cool-off of the token's address, asked by the address itself; nil for a token not this server's or old.
    package func lift(_ token: String, by caller: Caller, logger: Logger) async throws -> Standing? {
        let now = clock.now
        guard let report = SignInReport(token: token, secret: secret, at: now) else { return nil }
        try await limiter.write(counting: caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester) { transaction in
            _ = try await Self.lift(report.email, by: "the address", requester: caller.requester, at: now, in: transaction)
        }
        logger.debug("Cool-off lifted by the address", metadata: ["email": "\(report.email.redacted)"])
        return Standing(report: report, until: nil)
    }

    /// Ends the cool-off of `email` for an operator (`latchkey cool-off lift`); false when none was on.
    package static func lift(_ email: EmailAddress, in store: any Store, at now: Date) async throws -> Bool {
        try await store.write { transaction in
            try await lift(email, by: "an operator", requester: RequesterSummary(), at: now, in: transaction)
        }
    }

    private static func lift(
        _ email: EmailAddress, by actor: String, requester: RequesterSummary, at now: Date, in transaction: any StoreTransaction
    ) async throws -> Bool {
        guard try await transaction.liftCoolOff(for: email, at: now) else { return false }
        try await transaction.record(AuditEvent(.coolOffLifted, at: now, email: email, requester: requester, detail: "by \(actor)"))
        return true
    }
}
