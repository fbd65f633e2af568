import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// An admin's account creation (the Admin SDKs' `create_user`, and `accounts:signUp` with the admin's bearer token): an
/// account and nothing else. Nobody signed in, so there is no session and no last sign-in time, and Firebase's answer
/// to a privileged `signUp` carries no tokens.
@Suite(.outsideProcesses) struct AdminAccountCreationTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
    static let paths = ["/v1/projects/test-project/accounts", "/v1/accounts:signUp"]

    @Test(arguments: StoreKind.all, paths)
    func anAdminCreatedAccountHasNoSessionAndNoSignInTime(_ store: StoreKind, _ path: String) async throws {
        try await withApp(store: store) { client, workspace, _ in
            let body = #"{"email":"Cleo@Example.com","password":"cleo's password","displayName":"Cleo","emailVerified":true}"#
            let created = try await client.post(path, json: body, key: nil, headers: Self.admin)
            #expect(created.status == .ok, "\(created.text)")
            let answer = try created.json
            let localID = try #require(answer["localId"] as? String)
            #expect(answer["email"] as? String == "cleo@example.com" && answer["displayName"] as? String == "Cleo")
            #expect(answer["idToken"] == nil && answer["refreshToken"] == nil && answer["expiresIn"] == nil)
            if path.hasSuffix("accounts:signUp") {
                // Firebase's answer to a privileged signUp: the account, no tokens.
                #expect(Set(answer.keys) == ["kind", "localId", "email", "displayName"])
                #expect(answer["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
            }

            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(localID)"]}"#, key: nil, headers: Self.admin)
            let user = try #require((try lookup.json["users"] as? [[String: Any]])?.first, "\(lookup.text)")
            #expect(user["createdAt"] is String)
            #expect(user["lastLoginAt"] == nil)
            #expect(user["emailVerified"] as? Bool == true && user["displayName"] as? String == "Cleo")
            #expect((user["providerUserInfo"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["password"])
            // The password works, and that sign-in is the account's first.
            let signedIn = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"cleo@example.com","password":"cleo's password"}"#)
            #expect(try signedIn.json["localId"] as? String == localID)

            if store == .sqlite {
                let (sessions, kinds) = try await workspace.openDatabase().read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? -1,
                        try String.fetchAll(db, sql: "SELECT kind FROM audit_events WHERE account_id = ? ORDER BY id", arguments: [localID])
                    )
                }
                #expect(sessions == 1)  // the password sign-in's, none of the creation's
                #expect(kinds == ["account_created", "sign_in_completed"])
            }
        }
    }
}
