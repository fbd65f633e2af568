/// `accounts:cancelRecoverEmail`, a Latchkey extension: the signed-in owner cancels the pending undos of the account's
/// address changes.
public struct CancelRecoverEmailRequest: Sendable, Codable, Equatable {
    /// The ID token of a recent sign-in that passed the account's second factor.
    public var idToken: String?

    public init(idToken: String? = nil) {
        self.idToken = idToken
    }
}
