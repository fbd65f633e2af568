import Foundation

/// What the email of an action other than sign-in says (a password reset, an address verification, an address change,
/// and the undo of a change mailed to the old address): stored sealed in the outbox like a `SignInLetter`, rendered
/// at delivery.
package struct ActionLetter: OutboxLetter, Equatable {
    package static let format = OutboxMessage.Format.actionLetter

    package var action: EmailAction
    /// The full link, code included: the reason the letter is sealed.
    package var link: String
    /// The account's address; for an undo the address it gets back.
    package var email: String
    /// For an address change the new address (the recipient); for an undo the address the account was changed to.
    package var newEmail: String?
    package var language: String
    package var lifetimeSeconds: Int
    /// Unix seconds of the request, for the email's text and its `Date` header.
    package var requestedAt: Double
    package var ipAddress: String?
    package var userAgent: String?
    /// The random part of the `Message-ID`, fixed when queued, as for `SignInLetter`.
    package var messageToken: String

    package init(
        _ action: EmailAction, link: ActionLink, email: EmailAddress, newEmail: EmailAddress? = nil, language: LanguageTag, lifetime: TimeInterval,
        requestedAt: Date, requester: RequesterSummary
    ) {
        self.action = action
        self.link = link.url
        self.email = email.value
        self.newEmail = newEmail?.value
        self.language = language.value
        self.lifetimeSeconds = Int(lifetime.rounded(.up))
        self.requestedAt = requestedAt.timeIntervalSince1970
        self.ipAddress = requester.ipAddress
        self.userAgent = requester.userAgent
        self.messageToken = ServerSecret.makeToken(bytes: 18)
    }
}
