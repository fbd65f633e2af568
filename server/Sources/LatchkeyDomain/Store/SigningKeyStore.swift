import Foundation

/// The keys ID tokens are signed with, shared by every instance on the store. A store only ever holds a private half
/// sealed (`SigningKeyRecord`); opening it takes the server secret.
package protocol SigningKeyStore {
    /// Every stored key, oldest first.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// Adds `key`; false, adding nothing, when a key with its id is stored already.
    func addSigningKey(_ key: SigningKeyRecord) async throws -> Bool
    /// Makes any other transaction that calls this wait until this one ends, so that instances starting together on one
    /// database, each finding no key, agree on one first key rather than each adding its own.
    func lockSigningKeys() async throws
}
