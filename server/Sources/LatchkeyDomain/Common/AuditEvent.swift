import Foundation

/// A security-relevant event, kept in the audit table for `latchkey audit`.
package struct AuditEvent: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case codeIssued = "code_issued"
        case signInCompleted = "sign_in_completed"
        case passwordStripped = "password_stripped"
        case sessionsRevoked = "sessions_revoked"
        /// An account an admin created: nobody signed in.
        case accountCreated = "account_created"
        case accountDisabled = "account_disabled"
        case accountEnabled = "account_enabled"
        case accountDeleted = "account_deleted"
        case rateLimited = "rate_limited"
        case secondFactorAdded = "second_factor_added"
        case secondFactorRemoved = "second_factor_removed"
        /// A first factor passed by an account with second factors; the sign-in waits for a code.
        case secondFactorRequested = "second_factor_requested"
        /// A wrong or replayed second-factor code.
        case secondFactorRefused = "second_factor_refused"
        /// A new password set through an emailed reset link.
        case passwordReset = "password_reset"
        case emailVerified = "email_verified"
        /// The account moved to a new address its owner proved.
        case emailChanged = "email_changed"
        /// An address change undone from the old address.
        case emailRestored = "email_restored"
        /// The owner, signed in with both factors, cancelled the pending undos of the account's address changes.
        case undosCancelled = "undos_cancelled"
        /// "This wasn't me" from a sign-in email: the address's sign-in codes died and its cool-off began.
        case signInReported = "sign_in_reported"
        /// A cool-off ended early, by the address itself or by an operator.
        case coolOffLifted = "cool_off_lifted"
    }

    package var kind: Kind
    package var at: Date
    package var accountID: String?
    package var email: EmailAddress?
    package var requester: RequesterSummary
    /// A few words more (the rule that refused, who acted); never a code, token or password.
    package var detail: String?

    package init(
        _ kind: Kind, at: Date, accountID: String? = nil, email: EmailAddress? = nil, requester: RequesterSummary = RequesterSummary(),
        detail: String? = nil
    ) {
        self.kind = kind
        self.at = at
        self.accountID = accountID
        self.email = email
        self.requester = requester
        self.detail = detail
    }
}
