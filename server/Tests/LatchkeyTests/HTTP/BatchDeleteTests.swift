import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

/// `accounts:batchDelete`, the Admin SDKs' `delete_users`: up to 1,000 uids at once, each deleted as `accounts:delete`
/// deletes one; an enabled account only with `force`, else a per-uid error in Firebase's shape; an unknown uid is no
/// error.
@Suite(.outsideProcesses) struct BatchDeleteTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]

    static func create(_ client: any TestClientProtocol, _ uid: String, disabled: Bool = false) async throws {
        let body = #"{"localId":"\#(uid)","email":"\#(uid)@example.com","password":"\#(uid)'s password","disabled":\#(disabled)}"#
        let created = try await client.post("/v1/projects/test-project/accounts", json: body, key: nil, headers: admin)
        #expect(created.status == .ok, "\(created.text)")
    }

    static func batchDelete(_ client: any TestClientProtocol, _ body: String, path: String = "/v1/projects/test-project/accounts:batchDelete")
        async throws -> TestResponse
    {
        try await client.post(path, json: body, key: nil, headers: admin)
    }

    @Test(arguments: StoreKind.all) func withoutForceOnlyDisabledAccountsGoAndTheOthersAreListed(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, workspace, _ in
            try await Self.create(client, "ann")
            try await Self.create(client, "ben", disabled: true)
            try await Self.create(client, "cat")
            let session = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"ann@example.com","password":"ann's password"}"#)
            let refreshToken = try #require(try session.json["refreshToken"] as? String)

            let gentle = try await Self.batchDelete(client, #"{"localIds":["ann","nobody","ben"]}"#)
            #expect(gentle.status == .ok, "\(gentle.text)")
            let errors = try #require(try gentle.json["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["index"] as? Int == 0 && errors.first?["localId"] as? String == "ann")
            #expect(errors.first?["message"] as? String == "NOT_DISABLED : Disable the account before batch deletion.")
            #expect(try await client.accountIDs() == ["ann", "cat"])
            #expect(try await client.refresh(refreshToken).status == .ok)

            let forced = try await Self.batchDelete(
                client, #"{"localIds":["ann","cat"],"force":true}"#, path: "/identitytoolkit.googleapis.com/v1/accounts:batchDelete")
            #expect(try forced.status == .ok && forced.json.isEmpty, "\(forced.text)")
            #expect(try await client.accountIDs().isEmpty)
            // As after accounts:delete: the sessions are gone with the account.
            #expect(try await client.refresh(refreshToken).errorMessage == "USER_NOT_FOUND")
            let gone = try await client.post("/v1/accounts:lookup", json: #"{"email":["ann@example.com"]}"#, key: nil, headers: Self.admin)
            #expect((try gone.json["users"] as? [Any] ?? []).isEmpty)

            if store == .sqlite {
                let deleted = try await workspace.openDatabase().read { db in
                    try String.fetchAll(db, sql: "SELECT account_id FROM audit_events WHERE kind = 'account_deleted' ORDER BY id")
                }
                #expect(deleted == ["ben", "ann", "cat"])
            }
        }
    }

    @Test func theBatchIsBoundedAndForAdminsOnly() async throws {
        try await withApp { client, _, _ in
            try await Self.create(client, "ann", disabled: true)
            let tooMany = "[" + (0...1_000).map { #""user-\#($0)""# }.joined(separator: ",") + "]"
            for body in [#"{"localIds":\#(tooMany),"force":true}"#, #"{"localIds":[]}"#, "{}"] {
                #expect(try await Self.batchDelete(client, body).errorMessage == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
            }
            #expect(try await Self.batchDelete(client, #"{"localIds":"ann"}"#).status == .badRequest)
            #expect(try await Self.batchDelete(client, #"{"localIds":["ann"],"force":"yes"}"#).status == .badRequest)
            let asApp = try await client.post("/v1/accounts:batchDelete", json: #"{"localIds":["ann"],"force":true}"#)
            #expect(asApp.status == .unauthorized || asApp.status == .forbidden)
            #expect(try await client.accountIDs() == ["ann"])

            let exactlyTheLimit = "[\"ann\"," + (1..<1_000).map { #""user-\#($0)""# }.joined(separator: ",") + "]"
            #expect(try await Self.batchDelete(client, #"{"localIds":\#(exactlyTheLimit)}"#).status == .ok)
            #expect(try await client.accountIDs().isEmpty)
        }
    }
}
