import Foundation
import LatchkeyWire

extension Auth {
    /// Mails a sign-in link to `email`. `actionCodeSettings.handleCodeInApp` must be true: the app completes the sign-in.
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        let _: EmptyResponse = try await backend.call("v1/accounts:sendOobCode", actionCodeSettings.request(.emailSignIn, email: email))
    }

    /// Whether `link` is an email sign-in link, Latchkey's own or wrapped in an app link (`link=`, `deep_link_id=`).
    public func isSignIn(withEmailLink link: String) -> Bool {
        EmailActionLink(link)?.isSignIn == true
    }

    /// Completes an email-link sign-in with the address it was sent to and the link the app was opened with, or the
    /// short code the email shows for typing on another device.
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, link: link))
    }

    /// Mails a password reset link. With enumeration protection on the service answers the same for an unknown address.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let request = (actionCodeSettings ?? ActionCodeSettings()).request(.passwordReset, email: email)
        let _: EmptyResponse = try await backend.call("v1/accounts:sendOobCode", request)
    }

    /// Sets a new password with the code of a reset link; every session of the account ends.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        let _: EmptyResponse = try await backend.call("v1/accounts:resetPassword", ResetPasswordRequest(oobCode: code, newPassword: newPassword))
    }

    /// What a code is for and which addresses it names, without spending it.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        ActionCodeInfo(try await backend.call("v1/accounts:resetPassword", ResetPasswordRequest(oobCode: code)))
    }

    /// The address a password reset code is for, without spending it.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let info = try await checkActionCode(code)
        guard info.operation == .passwordReset, let email = info.email else { throw AuthError(.invalidActionCode) }
        return email
    }

    /// Applies an address verification, an address change, or its undo.
    public func applyActionCode(_ code: String) async throws {
        var request = SetAccountInfoRequest()
        request.oobCode = code
        let _: EmptyResponse = try await backend.call("v1/accounts:update", request)
    }
}
