import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// The email actions other than sign-in: `accounts:sendOobCode` for a password reset, a verification or an address
/// change, and `accounts:resetPassword`. Their codes are applied by `accounts:update` with `oobCode`.
extension IdentityToolkitController {
    /// The action, its settings and who it is for are the domain's (`ActionCodeIssuer.send`).
    func sendActionCode(_ body: SendOobCodeRequest, _ request: Request, context: AppRequestContext) async throws -> GetOobConfirmationCodeResponse {
        // Sign-in requests never come here; the undo of a change is never asked for (nil).
        guard let action = EmailAction(body.requestType) else { throw SignInError.invalidRequestType }
        let sent = try await actionIssuer.send(
            action, body, settings: try actionSettings(body), language: context.language(of: request), apiKey: context.apiKey ?? "",
            by: context.caller(of: request), logger: context.logger)
        guard body.returnOobLink == true, let issued = sent.issued else { return GetOobConfirmationCodeResponse(email: sent.email.value) }
        return GetOobConfirmationCodeResponse(email: sent.email.value, oobCode: issued.code, oobLink: issued.link.url)
    }

    /// The continue URL and apps are optional for these actions: without any, the landing page shows no way back.
    private func actionSettings(_ body: SendOobCodeRequest) throws(SignInError) -> ActionCodeSettings {
        guard body.continueUrl != nil || body.iOSBundleId != nil || body.androidPackageName != nil else { return .noContinueURL }
        return try ActionCodeSettings(
            continueURL: body.continueUrl, canHandleCodeInApp: body.canHandleCodeInApp ?? false, iOSBundleID: body.iOSBundleId,
            androidPackageName: body.androidPackageName, androidInstallApp: body.androidInstallApp ?? false,
            androidMinimumVersion: body.androidMinimumVersion, authorizedDomains: authorizedDomains, apps: apps)
    }

    /// With `oobCode` alone (or an empty `newPassword`, as Firebase reads it), what the code is for, nothing spent;
    /// with `newPassword` too, a password reset.
    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> ResetPasswordResponse {
        let body = try await RequestBody.decode(ResetPasswordRequest.self, from: request, context: context)
        let code = try OOBCode.requestField(body.oobCode)
        let caller = context.caller(of: request)
        let checked =
            if let newPassword = body.newPassword, !newPassword.isEmpty {
                try await actionCodes.resetPassword(code, to: newPassword, by: caller, logger: context.logger)
            } else {
                try await actionCodes.check(code, by: caller)
            }
        return ResetPasswordResponse(email: checked.email?.value, newEmail: checked.newEmail?.value, requestType: OobRequestType(checked.action))
    }
}
