/// The second factor a session passed: what its ID tokens name as `second_factor_identifier` and
/// `sign_in_second_factor`, kept on the session through every refresh.
package struct PassedSecondFactor: Sendable, Equatable {
    package var id: String
    package var kind: SecondFactor.Kind

    package init(id: String, kind: SecondFactor.Kind) {
        self.id = id
        self.kind = kind
    }

    /// The factor a session row or an ID token names: its id and kind (none on rows and tokens from before phone
    /// factors, which passed an authenticator app).
    package init?(stored id: String?, kind: String?) {
        guard let id else { return nil }
        self.init(id: id, kind: kind.flatMap(SecondFactor.Kind.init(rawValue:)) ?? .totp)
    }
}
