import LatchkeyWire

/// What an email action code is for, read without spending it (Firebase's `ActionCodeInfo`).
public struct ActionCodeInfo: Sendable, Equatable {
    public enum Operation: Sendable, Equatable {
        case passwordReset, verifyEmail, recoverEmail, emailLink, verifyAndChangeEmail
    }

    public let operation: Operation
    /// The address the code is for: for an address change the new one, for its undo the one it restores.
    public let email: String?
    /// For an address change, the address it moves from; for its undo, the address it undoes.
    public let previousEmail: String?

    init(_ answer: ResetPasswordResponse) {
        operation = switch answer.requestType {
        case .passwordReset: .passwordReset
        case .verifyEmail: .verifyEmail
        case .recoverEmail: .recoverEmail
        case .emailSignIn: .emailLink
        case .verifyAndChangeEmail: .verifyAndChangeEmail
        }
        // As Firebase's SDKs read the answer: `newEmail` is the address a change moves to.
        let isChange = answer.requestType == .verifyAndChangeEmail
        email = isChange ? answer.newEmail : answer.email
        previousEmail = isChange ? answer.email : answer.newEmail
    }
}
