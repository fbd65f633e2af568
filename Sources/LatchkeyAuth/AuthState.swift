import Foundation
import LatchkeyWire

/// What an `Auth` shares with its users: the service, the persisted user, and who listens for changes.
final class AuthState: Sendable {
    let backend: IdentityToolkit
    private let persistence: any UserPersistence
    private let state = Locked(State())

    private struct State {
        var user: User?
        var listeners: [UUID: AsyncStream<User?>.Continuation] = [:]
    }

    /// Opens the user `persistence` kept, if any; a record that cannot be read counts as signed out.
    init(backend: IdentityToolkit, persistence: any UserPersistence) {
        self.backend = backend
        self.persistence = persistence
        if let data = try? persistence.load(), let record = try? JSONDecoder().decode(UserRecord.self, from: data) {
            state.withLock { $0.user = User(record, owner: self) }
        }
    }

    var currentUser: User? { state.current.user }

    /// Makes the user the service's answer signed in (reading the account's profile) the current one, and keeps it.
    func signIn(with tokens: TokenSet) async throws -> User {
        let lookup: GetAccountInfoResponse = try await backend.call("v1/accounts:lookup", GetAccountInfoRequest(idToken: tokens.idToken))
        guard let account = lookup.users.first else { throw AuthError(.userNotFound, message: "the new session has no account") }
        let record = UserRecord(account, tokens: tokens)
        try persistence.save(try JSONEncoder().encode(record))
        let user = User(record, owner: self)
        announce { $0.user = user }
        return user
    }

    /// Keeps `record` when `user` is still the signed-in one. A write that fails leaves the user signed in for this
    /// launch only: failing the token request that caused it would help nobody.
    func save(_ record: UserRecord, of user: User) {
        guard state.current.user === user, let data = try? JSONEncoder().encode(record) else { return }
        try? persistence.save(data)
    }

    /// Signs `user` out if it is the current one (any current user when `nil`), forgetting it.
    func signOut(ifCurrent user: User? = nil) throws {
        guard let current = state.current.user, user == nil || current === user else { return }
        announce { $0.user = nil }
        try persistence.remove()
    }

    /// The current user now and after each sign-in and sign-out.
    func changes() -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream.makeStream(of: User?.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        state.withLock { state in
            state.listeners[id] = continuation
            continuation.yield(state.user)
        }
        return stream
    }

    private func announce(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            for listener in state.listeners.values { listener.yield(state.user) }
        }
    }
}
