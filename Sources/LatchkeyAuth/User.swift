import Foundation
import LatchkeyWire

/// The signed-in user (Firebase's `User`): the profile as last read, and the session's tokens.
public final class User: Sendable, CustomStringConvertible {
    public let uid: String
    let record: Locked<UserRecord>
    let session: TokenSession
    /// The `Auth` that signed the user in; weak, as it holds its current user.
    weak let owner: AuthState?
    let backend: IdentityToolkit

    init(_ record: UserRecord, owner: AuthState) {
        uid = record.uid
        self.record = Locked(record)
        session = TokenSession(record.tokens)
        self.owner = owner
        backend = owner.backend
    }

    public var email: String? { record.current.email }
    public var isEmailVerified: Bool { record.current.isEmailVerified }
    public var isAnonymous: Bool { record.current.isAnonymous }
    public var displayName: String? { record.current.displayName }
    public var photoURL: URL? { record.current.photoURL.flatMap(URL.init(string:)) }
    /// The identity providers and the password the user signs in with.
    public var providerData: [UserInfo] { record.current.providerData }
    public var metadata: UserMetadata {
        let record = record.current
        return UserMetadata(creationDate: record.creationDate, lastSignInDate: record.lastSignInDate)
    }

    /// Never shows a token.
    public var description: String { "User(\(uid))" }

    /// A fresh ID token for the service's API or your backend, renewed when it is near its expiry or `forcingRefresh`.
    /// Concurrent callers share one renewal. A session the service ended signs the user out.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        do {
            let (tokens, renewed) = try await session.idToken(forcingRefresh: forcingRefresh, backend: backend)
            if renewed { persist { $0.tokens = tokens } }
            return tokens.idToken
        } catch let error as AuthError where error.endsSession {
            try? owner?.signOut(ifCurrent: self)
            throw error
        }
    }

    /// The ID token with its claims decoded.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> IDTokenResult {
        try IDTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// Applies `change` to the record and keeps it, when this user is still the signed-in one.
    func persist(_ change: (inout UserRecord) -> Void) {
        let updated = record.withLock { record in
            change(&record)
            return record
        }
        owner?.save(updated, of: self)
    }
}

extension AuthError {
    /// A refusal that means the session is over: the user must sign in again.
    var endsSession: Bool { [.invalidUserToken, .userTokenExpired, .userDisabled, .userNotFound].contains(code) }
}
