import LatchkeyDomain
import LatchkeyWire

extension SetAccountInfoResponse {
    /// The user after a change, with the new session's tokens when the change made one.
    init(_ record: UserRecord, session: Session?) {
        let user = UserInfo(record)
        self.init(
            localId: user.localId, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName, photoUrl: user.photoUrl,
            passwordHash: user.passwordHash, providerUserInfo: user.providerUserInfo, idToken: session?.idToken,
            refreshToken: session?.refreshToken, expiresIn: session.map { String($0.expiresIn) })
    }
}
