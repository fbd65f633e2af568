import Foundation

/// What an emailed link's code stands for right now, for the landing page. Looking never spends, extends or counts
/// anything, because mail scanners open every link.
package struct LinkInspector: Sendable {
    /// A code's state; all but `unknown` carry the request it was issued for.
    package enum State: Sendable {
        /// Never issued or swept away (no request), or killed by wrong addresses.
        case unknown(PendingRequest?)
        case used(PendingRequest)
        case expired(PendingRequest)
        case live(PendingRequest)

        /// The request the code was issued for, if it is still stored.
        package var request: PendingRequest? {
            switch self {
            case .unknown(let request): request
            case .used(let request), .expired(let request), .live(let request): request
            }
        }
    }

    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock

    package init(store: any Store, secret: ServerSecret, clock: any WallClock) {
        self.store = store
        self.secret = secret
        self.clock = clock
    }

    /// Looks `code` up on a read-only snapshot.
    package func state(of code: String) async throws -> State {
        let codeHash = LinkCode.key(code, secret: secret)
        guard let pending = try await store.read({ try await $0.pendingRequest(codeHash: codeHash) }) else { return .unknown(nil) }
        if pending.usedAt != nil { return .used(pending) }
        if pending.isSpent { return .unknown(pending) }
        return pending.isExpired(at: clock.now) ? .expired(pending) : .live(pending)
    }
}
