/// Firebase's `ResetPasswordRequest` (`accounts:resetPassword`): with `oobCode` alone, what an emailed code is for
/// (`checkActionCode`, `verifyPasswordResetCode`); with `newPassword` too, a password reset.
public struct ResetPasswordRequest: Sendable, Codable, Equatable {
    public var oobCode: String?
    public var newPassword: String?

    public init(oobCode: String?, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
}
