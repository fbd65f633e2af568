import Foundation

/// Sign-ins with providers in flight (`ProviderSession`, found by the keyed hash of their state) and identities kept
/// for later (`PendingCredential`, found by the keyed hash of their token).
package protocol ProviderFlowStore {
    func insert(_ session: ProviderSession) async throws
    /// The session, used or not, without using it: the hosted handler reads where to hand the answer over.
    func providerSession(stateHash: Data) async throws -> ProviderSession?
    /// Removes the session and returns it, so that only one caller ever gets it (expired or not: the caller checks).
    func takeProviderSession(stateHash: Data) async throws -> ProviderSession?
    func insert(_ credential: PendingCredential) async throws
    /// Removes the kept credential and returns it, so that a `pendingToken` is used once (expired or not: the caller
    /// checks).
    func takePendingCredential(tokenHash: Data) async throws -> PendingCredential?
}
