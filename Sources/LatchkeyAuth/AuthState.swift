import Foundation
import LatchkeyWire

/// What an `Auth` shares with its users: the service, the persisted user, and who listens for changes.
///
/// Which user is current and what is stored change together, under one lock: a user signed out or replaced can never
/// be stored again by a renewal of its tokens still under way.
final class AuthState: Sendable {
    let backend: IdentityToolkit
    /// The service stored with the user, and checked when it is loaded.
    private let service: ServiceIdentity
    private let persistence: any UserPersistence
    private let state = Locked(State())

    private struct State {
        var user: User?
        var listeners: [UUID: AsyncStream<User?>.Continuation] = [:]

        func announce() {
            for listener in listeners.values { listener.yield(user) }
        }
    }

    /// Opens the user `persistence` kept for `service`, if any; a record that cannot be read (or a file that
    /// `FileUserPersistence` refuses), or one kept for another service or with none, counts as signed out.
    init(backend: IdentityToolkit, service: ServiceIdentity, persistence: any UserPersistence) {
        self.backend = backend
        self.service = service
        self.persistence = persistence
        if let data = try? persistence.load(), let record = try? JSONDecoder().decode(UserRecord.self, from: data),
            record.service == service
        {
            state.withLock { $0.user = User(record, owner: self) }
        }
    }

    deinit {
        state.withLock { state in
            for listener in state.listeners.values { listener.finish() }
        }
    }

    var currentUser: User? { state.current.user }

    /// Makes the user the service's answer signed in (reading the account's profile) the current one, and keeps it.
    func signIn(with tokens: TokenSet) async throws -> User {
        let lookup: GetAccountInfoResponse = try await backend.call("v1/accounts:lookup", GetAccountInfoRequest(idToken: tokens.idToken))
        guard let account = lookup.users.first else { throw AuthError(.userNotFound, message: "the new session has no account") }
        let record = UserRecord(account, tokens: tokens)
        let data = try stored(record)
        let user = User(record, owner: self)
        try state.withLock { state in
            try persistence.save(data)
            state.user = user
            state.announce()
        }
        return user
    }

    /// Keeps `record` when `user` is still the signed-in one. A write that fails leaves the user signed in for this
    /// launch only: failing the token request that caused it would help nobody.
    func save(_ record: UserRecord, of user: User) {
        guard let data = try? stored(record) else { return }
        state.withLock { state in
            guard state.user === user else { return }
            try? persistence.save(data)
        }
    }

    /// `record` as persisted: with the service it belongs to.
    private func stored(_ record: UserRecord) throws -> Data {
        var record = record
        record.service = service
        return try JSONEncoder().encode(record)
    }

    /// Signs `user` out if it is the current one (any current user when `nil`): forgets it on the device, then here.
    func signOut(ifCurrent user: User? = nil) throws {
        try state.withLock { state in
            guard let current = state.user, user == nil || current === user else { return }
            try persistence.remove()
            state.user = nil
            state.announce()
        }
    }

    /// The current user now and after each sign-in and sign-out; the stream ends with its `Auth`.
    func changes() -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream.makeStream(of: User?.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        state.withLock { state in
            state.listeners[id] = continuation
            continuation.yield(state.user)
        }
        return stream
    }
}
