import Synchronization

/// A wait no cancellation ends: tasks wait at the gate while it is closed, and all go on when a test opens it.
final class Gate: Sendable {
    private let state: Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>

    init(isOpen: Bool = false) {
        state = Mutex((isOpen, []))
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// How many tasks wait at the gate.
    var waiting: Int { state.withLock { $0.waiters.count } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func close() {
        state.withLock { $0.isOpen = false }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
