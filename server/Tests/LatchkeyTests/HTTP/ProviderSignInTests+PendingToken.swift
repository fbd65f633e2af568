import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// `pendingToken` (issue #31, point 8): handed out only where the SDKs use one, spent by its first use, and dead once
/// the account it names has its sessions revoked or is deleted.
extension ProviderSignInTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]

    /// A signed-in answer has nothing for the SDKs to keep: no `pendingToken`.
    @Test func aSuccessfulSignInCarriesNoPendingToken() async throws {
        try await withProvider { client, provider, _ in
            let token = try await provider.idToken(subject: "pia-1", claims: ["email": "pia@example.com", "email_verified": true])
            let answer = try await signIn(client, idToken: token).json
            #expect(answer["idToken"] is String && answer["pendingToken"] == nil)
        }
    }

    /// The "already in use" answer's token signs in to the identity's account once; a second use, a use after the
    /// account's sessions were revoked, and a use after the account was deleted are `INVALID_PENDING_TOKEN`.
    @Test func aPendingTokenIsSpentOnceAndEndsWithTheAccount() async throws {
        let clock = RunningClock()
        try await withProvider(clock: clock) { client, provider, _ in
            let owner = try await signIn(client, idToken: try await provider.idToken(subject: "quinn-1")).json
            let ownerID = try #require(owner["localId"] as? String)
            let other = try #require(try await client.post("/v1/accounts:signUp", json: "{}").json["idToken"] as? String)
            func inUse() async throws -> String {
                let answer = try await signIn(
                    client, idToken: try await provider.idToken(subject: "quinn-1"), extra: #","idToken":"\#(other)","returnIdpCredential":true"#
                ).json
                #expect(answer["errorMessage"] as? String == "FEDERATED_USER_ID_ALREADY_LINKED")
                return try #require(answer["pendingToken"] as? String)
            }
            func use(_ pending: String) async throws -> TestResponse {
                try await client.post("/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"\#(pending)","returnSecureToken":true}"#)
            }
            let first = try await inUse()
            let signedIn = try await use(first)
            #expect(try signedIn.json["localId"] as? String == ownerID && signedIn.json["pendingToken"] == nil)
            #expect(try await use(first).errorMessage == "INVALID_PENDING_TOKEN")

            let beforeRevocation = try await inUse()
            clock.advance(by: 2)
            let revoke = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(ownerID)","validSince":"\#(Int(clock.now.timeIntervalSince1970))"}"#, key: nil,
                headers: Self.admin)
            #expect(revoke.status == .ok)
            #expect(try await use(beforeRevocation).errorMessage == "INVALID_PENDING_TOKEN")

            let beforeDeletion = try await inUse()
            #expect(try await client.post("/v1/accounts:delete", json: #"{"localId":"\#(ownerID)"}"#, key: nil, headers: Self.admin).status == .ok)
            #expect(try await use(beforeDeletion).errorMessage == "INVALID_PENDING_TOKEN")
        }
    }
}
