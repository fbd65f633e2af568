import Foundation

/// The text that carries a six-digit verification code to a phone, queued sealed in the same outbox as the letters
/// (it holds a live code) and rendered at delivery from `templates/sms/LANG/verification.txt.mustache`, whose last
/// line is the WebOTP line (`@host #code`) browsers and phones fill the code in from.
package struct VerificationText: OutboxContent, Equatable {
    package static let format = OutboxMessage.Format.verificationText

    /// What the code is for, so the wording can say so; a code for one purpose never works for another (the phone
    /// flows hold that rule, this only words the text).
    package enum Purpose: String, Sendable, Codable, CaseIterable {
        /// `sendVerificationCode` then `signInWithPhoneNumber` (sign-in, sign-up or linking a number).
        case signIn
        /// `mfaEnrollment:start`: the number becomes a second factor.
        case enrollment
        /// `mfaSignIn:start`: the second step of a sign-in.
        case challenge
    }

    /// The code, six digits: the reason the text is sealed.
    package var code: String
    package var purpose: Purpose
    package var language: String
    /// The origin host the WebOTP line binds the code to, when the flow knows the page's origin; otherwise the
    /// renderer takes `sms.webOTPHost` from the configuration.
    package var host: String?

    package init(code: String, purpose: Purpose, language: LanguageTag, host: String? = nil) {
        self.code = code
        self.purpose = purpose
        self.language = language.value
        self.host = host
    }

    /// The text as queued for `recipient`, sealed under `secret`.
    package func queued(to recipient: PhoneNumber, secret: ServerSecret, at now: Date) throws -> OutboxMessage {
        try sealed(for: .phone(recipient), secret: secret, at: now)
    }
}
