import Foundation

/// Addresses whose owner said "this wasn't me": until their cool-off ends, sends for them are dropped.
package protocol CoolOffStore {
    /// When the cool-off of `email` ends, if one is on at `now`.
    func coolOff(for email: EmailAddress, at now: Date) async throws -> Date?
    /// Starts, or moves the end of, the cool-off of `email`.
    func startCoolOff(for email: EmailAddress, until end: Date) async throws
    /// Ends the cool-off of `email`; false when none was on at `now`.
    func liftCoolOff(for email: EmailAddress, at now: Date) async throws -> Bool
    /// Every cool-off on at `now`, the soonest to end first.
    func coolOffs(at now: Date) async throws -> [(email: EmailAddress, until: Date)]
}
