import Foundation
import LatchkeyWire

/// The signed-in user (Firebase's `User`): the profile as last read, and the session's tokens.
public final class User: Sendable, CustomStringConvertible, CustomReflectable {
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
    /// The number the account signs in with (E.164), when it has one.
    public var phoneNumber: String? { record.current.phoneNumber }
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

    /// Never shows a token, nor does `dump`.
    public var description: String { "User(\(uid))" }
    public var customMirror: Mirror { Mirror(self, children: ["uid": uid]) }

    /// A fresh ID token for the service's API or your backend, renewed when it is within five minutes of its expiry
    /// or `forcingRefresh`. Concurrent callers share one renewal. A session the service ended signs the user out.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        try await session.idToken(
            forcingRefresh: forcingRefresh, backend: backend, keep: { self.keep($0) }, ended: { try? self.owner?.signOut(ifCurrent: self) })
    }

    /// The ID token with its claims decoded.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> IDTokenResult {
        try IDTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// Takes the tokens a link, a re-authentication or a password change answered with.
    func adopt(_ tokens: TokenSet) async {
        await session.replace(with: tokens) { self.keep($0) }
    }

    private func keep(_ tokens: TokenSet) {
        persist { $0.tokens = tokens }
    }

    /// Applies `change` to the record and stores it while this user is the signed-in one; under the record's lock, so
    /// that the stored copy is always the latest.
    func persist(_ change: (inout UserRecord) -> Void) {
        record.withLock { record in
            change(&record)
            owner?.save(record, of: self)
        }
    }
}
