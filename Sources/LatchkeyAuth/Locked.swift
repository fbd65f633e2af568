import Foundation

/// A value behind a lock, for the few pieces of shared state that must be read synchronously (`currentUser`, a
/// user's profile). `Mutex` would do, but it needs iOS 18 and macOS 15.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}
