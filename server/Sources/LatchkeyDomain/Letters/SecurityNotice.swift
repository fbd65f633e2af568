import Foundation

/// An email telling an account's owner that the way it signs in changed (a second factor added or removed): stored
/// sealed in the outbox like a sign-in letter, rendered at delivery.
package struct SecurityNotice: OutboxLetter, Equatable {
    package static let format = OutboxMessage.Format.securityNotice

    package enum Change: String, Sendable, Codable, CaseIterable {
        /// A second factor was added: an authenticator app, or a phone (`maskedPhone`).
        case factorAdded
        case factorRemoved
        /// An admin removed every factor, authenticator apps and phones alike.
        case allFactorsRemoved
        /// A sign-in passed its first factor, then its challenge died of wrong codes: someone else may hold the password.
        case codesRefused
        /// A password was linked to the account (`signUp` with an ID token).
        case passwordAdded
        /// An identity provider's account was linked to the account: it signs in there from now on.
        case providerLinked
    }

    package var change: Change
    /// The name the user gave the factor, if any.
    package var factorName: String?
    /// A phone factor's number, masked as a sign-in challenge shows it (`+*******0101`): the mail may be read by someone
    /// else. Absent for an authenticator app, which is what a notice queued before phones were factors always told of.
    package var maskedPhone: String?
    /// The account's other sessions stayed when the factor was added (an admin's enrollment). The owner's own
    /// enrollment ends them, which is what a notice without this field (queued before it) always said.
    package var sessionsKept: Bool?
    /// The linked provider, by its brand name (`providerLinked`).
    package var providerName: String?
    package var language: String
    /// Unix seconds of the change.
    package var changedAt: Double
    package var ipAddress: String?
    package var userAgent: String?
    /// The random part of the `Message-ID`, fixed when queued, as for `SignInLetter`.
    package var messageToken: String

    package init(
        _ change: Change, factorName: String? = nil, providerName: String? = nil, language: LanguageTag, at changedAt: Date, requester: RequesterSummary
    ) {
        self.change = change
        self.factorName = factorName
        self.providerName = providerName
        self.language = language.value
        self.changedAt = changedAt.timeIntervalSince1970
        self.ipAddress = requester.ipAddress
        self.userAgent = requester.userAgent
        self.messageToken = ServerSecret.makeToken(bytes: 18)
    }

    /// A notice of `factor` added or removed: its name, and a phone's number masked, never whole.
    package init(_ change: Change, of factor: SecondFactor, language: LanguageTag, at changedAt: Date, requester: RequesterSummary) {
        self.init(change, factorName: factor.displayName, language: language, at: changedAt, requester: requester)
        maskedPhone = factor.phoneNumber?.masked
    }
}
