/// What an emailed code does when it is used: the `mode` of its link, and the kind of its stored request.
package enum EmailAction: String, Sendable, CaseIterable, Codable {
    case signIn
    /// Sets a new password for the account that owns the address (Firebase's `PASSWORD_RESET`).
    case resetPassword
    /// Marks the account's address verified (`VERIFY_EMAIL`).
    case verifyEmail
    /// Moves the account to the new address the code was mailed to, which it proves (`VERIFY_AND_CHANGE_EMAIL`).
    case verifyAndChangeEmail
    /// Undoes an address change from the old address (`RECOVER_EMAIL`): mailed there when the change happened.
    case recoverEmail

    /// Whether the code belongs to one account (every action but sign-in, which may create one).
    package var isForAccount: Bool { self != .signIn }
}
