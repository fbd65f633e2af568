import Latchkey
import LatchkeyDomain

extension SignInResult {
    /// The session of a sign-in that was not stopped at a second factor; throws for one that was.
    var session: Session {
        get throws {
            guard case .signedIn(let session) = self else { throw SecondFactorAsked() }
            return session
        }
    }

    struct SecondFactorAsked: Error {}
}
