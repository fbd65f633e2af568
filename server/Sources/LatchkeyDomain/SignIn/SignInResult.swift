/// How a first factor ends: signed in, or stopped at the account's second factor.
package enum SignInResult: Sendable {
    case signedIn(Session)
    case secondFactorRequired(SecondFactorRequired)

    /// The account signing in.
    package var account: Account {
        switch self {
        case .signedIn(let session): session.account
        case .secondFactorRequired(let required): required.account
        }
    }

    package var isNewUser: Bool {
        switch self {
        case .signedIn(let session): session.isNewUser
        case .secondFactorRequired(let required): required.isNewUser
        }
    }
}

/// A first factor passed by an account with second factors: the credential to answer with a code
/// (`mfaPendingCredential`), and the factors that can give it (`mfaInfo`).
package struct SecondFactorRequired: Sendable {
    package var account: Account
    package var pendingCredential: String
    package var factors: [SecondFactor]
    package var isNewUser: Bool
}
