/// Latchkey's answer to `accounts:cancelRecoverEmail`: whose undos, and how many were still pending and are now cancelled.
public struct CancelRecoverEmailResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#CancelRecoverEmailResponse"
    public var localId: String
    public var email: String?
    /// How many undo links stopped working; 0 when none was pending.
    public var cancelledUndos: Int

    public init(localId: String, email: String?, cancelledUndos: Int) {
        self.localId = localId
        self.email = email
        self.cancelledUndos = cancelledUndos
    }
}
