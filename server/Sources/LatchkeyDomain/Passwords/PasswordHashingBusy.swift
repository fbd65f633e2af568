/// Password hashing is saturated, so a request that needed it was refused before it changed anything: the client may
/// try again in a moment (`PasswordHashingLimits`).
package struct PasswordHashingBusy: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: String, Sendable {
        /// `queueLength` requests already wait for a thread.
        case queueFull = "queue full"
        /// No thread was free within `maximumWait`.
        case waitedTooLong = "waited too long"
        /// `checksPerAddress` checks of this address's password are already admitted.
        case addressBusy = "address busy"
    }

    package let reason: Reason

    package var description: String { "password hashing busy: \(reason.rawValue)" }
}
