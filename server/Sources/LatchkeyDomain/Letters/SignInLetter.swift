import Foundation

/// What one sign-in email says, queued sealed in the outbox when the link is issued (`OutboxLetter`).
package struct SignInLetter: OutboxLetter, Equatable {
    package static let format = OutboxMessage.Format.signInLetter

    /// The full sign-in link, code included: the reason the letter is sealed.
    package var link: String
    /// The short code to type instead, as the email shows it (`ABCD-EFGH`), when it shows one.
    package var typedCode: String?
    /// The "this wasn't me" link (`SignInReport`); letters queued before it existed have none.
    package var reportLink: String?
    package var language: String
    package var expiresInMinutes: Int
    /// Unix seconds of the request, for the email's text and its `Date` header.
    package var requestedAt: Double
    package var ipAddress: String?
    package var userAgent: String?
    /// The random part of the `Message-ID`, fixed when the link is issued: a retried or repeated delivery (delivery
    /// is at least once) carries the same ID, so receivers can tell it is one message.
    package var messageToken: String

    package init(
        link: ActionLink, typedCode: String? = nil, language: LanguageTag, expiresInMinutes: Int, requestedAt: Date, requester: RequesterSummary
    ) {
        self.messageToken = ServerSecret.makeToken(bytes: 18)
        self.link = link.url
        self.typedCode = typedCode.map(TypedCode.display)
        self.language = language.value
        self.expiresInMinutes = expiresInMinutes
        self.requestedAt = requestedAt.timeIntervalSince1970
        self.ipAddress = requester.ipAddress
        self.userAgent = requester.userAgent
    }
}
