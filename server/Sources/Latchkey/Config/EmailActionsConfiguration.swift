import LatchkeyDomain

/// How long the codes of the email actions other than sign-in stay valid (sign-in links: `emailLink.codeLifetimeSeconds`).
///
/// - `emailActions.resetPasswordLifetimeSeconds` (integer, default `3600`, 60 to 604800): a password reset link.
/// - `emailActions.verifyEmailLifetimeSeconds` (integer, default `259200`, three days; 60 to 2592000): an address verification link.
/// - `emailActions.changeEmailLifetimeSeconds` (integer, default `259200`; 60 to 2592000): an address change link, mailed to the new address.
/// - `emailActions.recoverEmailLifetimeSeconds` (integer, default `259200`; 60 to 2592000): the "this wasn't me, undo it" link
///   mailed to the old address when it changed.
package struct EmailActionsConfiguration: Sendable {
    /// Seconds, for each action but sign-in.
    package var lifetimes: [EmailAction: Int]

    init(_ read: inout ConfigSectionReader) {
        lifetimes = [
            .resetPassword: read.int("emailActions.resetPasswordLifetimeSeconds", default: 3_600, in: 60...604_800),
            .verifyEmail: read.int("emailActions.verifyEmailLifetimeSeconds", default: 259_200, in: 60...2_592_000),
            .verifyAndChangeEmail: read.int("emailActions.changeEmailLifetimeSeconds", default: 259_200, in: 60...2_592_000),
            .recoverEmail: read.int("emailActions.recoverEmailLifetimeSeconds", default: 259_200, in: 60...2_592_000),
        ]
    }
}
