import LatchkeyWire

extension SetAccountInfoResponse {
    /// The account after a change, with the new session's tokens when the change made one.
    init(_ account: Account, session: Session?) {
        let user = UserInfo(account)
        self.init(
            localId: user.localId, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName, photoUrl: user.photoUrl,
            passwordHash: user.passwordHash, providerUserInfo: user.providerUserInfo, idToken: session?.idToken,
            refreshToken: session?.refreshToken, expiresIn: session.map { String($0.expiresIn) })
    }
}
