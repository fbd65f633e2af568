import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// `accounts:cancelRecoverEmail`, a Latchkey extension: the owner of an account, signed in recently with both factors,
/// cancels the pending undos (`RECOVER_EMAIL`) of its address changes, so that the old mailbox cannot take it back.
@Suite(.outsideProcesses) struct UndoCancellationTests {
    static let paths = [
        "/v1/accounts:cancelRecoverEmail", "/v1/projects/test-project/accounts:cancelRecoverEmail",
        "/identitytoolkit.googleapis.com/v1/accounts:cancelRecoverEmail",
        "/identitytoolkit.googleapis.com/v1/projects/test-project/accounts:cancelRecoverEmail",
    ]

    static func cancel(_ client: any TestClientProtocol, _ idToken: String?, path: String = paths[0]) async throws -> TestResponse {
        try await client.post(path, json: idToken.map { #"{"idToken":"\#($0)"}"# } ?? "{}")
    }

    static func errorMessage(_ response: TestResponse) throws -> String {
        try #require((try response.json["error"] as? [String: Any])?["message"] as? String, "\(response.text)")
    }

    /// Alice moves her account to bob@example.net and signs in there: the old address holds a pending undo.
    /// Returns the new session's ID token (first factor only) and the undo's code.
    static func changeAddress(_ client: any TestClientProtocol, _ mailbox: Mailbox, clock: FixedClock) async throws -> (idToken: String, undo: String) {
        try await client.sendLink()
        let alice = try await client.complete(code: try await mailbox.code()).json
        let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(try #require(alice["idToken"] as? String))","newEmail":"bob@example.net"}"#
        #expect(try await client.post("/v1/accounts:sendOobCode", json: change).status == .ok)
        let move = try await AddressUndoTests.code(mailbox, mode: "verifyAndChangeEmail", count: 2)
        #expect(try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(move)"}"#).status == .ok)
        let undo = try await AddressUndoTests.code(mailbox, mode: "recoverEmail", count: 3)
        clock.advance(by: 60)
        try await client.sendLink(to: "bob@example.net")
        let bob = try await client.complete(email: "bob@example.net", code: try await AddressUndoTests.code(mailbox, mode: "signIn", count: 4)).json
        return (try #require(bob["idToken"] as? String, "\(bob)"), undo)
    }

    @Test(arguments: StoreKind.all)
    func theOwnerSignedInWithBothFactorsCancelsThePendingUndo(_ store: StoreKind) async throws {
        let clock = FixedClock(Date())
        try await withApp(AddressUndoTests.settings, store: store, clock: clock) { client, workspace, mailbox in
            let (firstFactorOnly, undo) = try await Self.changeAddress(client, mailbox, clock: clock)

            // No second factor enrolled: nothing to cancel with.
            let unprotected = try await Self.cancel(client, firstFactorOnly)
            #expect(unprotected.status == .badRequest)
            #expect(try Self.errorMessage(unprotected).hasPrefix("MFA_ENROLLMENT_NOT_FOUND"))

            // With an authenticator, a session that did not pass one is refused: here the one a withdrawal of a second
            // authenticator gives, whose tokens name no factor.
            clock.advance(by: 60)
            let (own, enrolled) = try await client.enrollAuthenticator(idToken: firstFactorOnly, at: clock.now)
            let (spare, spareEnrolled) = try await client.enrollAuthenticator(
                idToken: try #require(enrolled["idToken"] as? String), at: clock.now, name: "Spare")
            let withdraw = #"{"idToken":"\#(try #require(spareEnrolled["idToken"] as? String))","mfaEnrollmentId":"\#(spare.factorID)"}"#
            let withdrawn = try await client.post("/v2/accounts/mfaEnrollment:withdraw", json: withdraw).json
            let unpassed = try await Self.cancel(client, try #require(withdrawn["idToken"] as? String, "\(withdrawn)"))
            #expect(unpassed.status == .badRequest)
            #expect(try Self.errorMessage(unpassed) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN : Sign in again with the account's second factor.")

            // Signed in again with both factors, the owner cancels the undo.
            clock.advance(by: 60)
            try await client.sendLink(to: "bob@example.net")
            // Mailed since the change: two notices of an authenticator added, one of one removed, the sign-in link.
            let challenge = try await client.complete(email: "bob@example.net", code: try await AddressUndoTests.code(mailbox, mode: "signIn", count: 8)).json
            let pending = try #require(challenge["mfaPendingCredential"] as? String, "\(challenge)")
            let signedIn = try await client.finishSecondFactor(pending, factorID: own.factorID, code: own.code(at: clock.now)).json
            let passed = try #require(signedIn["idToken"] as? String, "\(signedIn)")
            let cancelled = try await Self.cancel(client, passed)
            #expect(cancelled.status == .ok, "\(cancelled.text)")
            let body = try cancelled.json
            #expect(body["kind"] as? String == "identitytoolkit#CancelRecoverEmailResponse")
            #expect(body["email"] as? String == "bob@example.net")
            #expect(body["cancelledUndos"] as? Int == 1)
            #expect(try await Self.cancel(client, passed).json["cancelledUndos"] as? Int == 0)

            // The undo link is dead, and the account stays at its new address.
            let applied = try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(undo)"}"#)
            #expect(try Self.errorMessage(applied) == "INVALID_OOB_CODE")
            let checked = try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(undo)"}"#)
            #expect(try Self.errorMessage(checked) == "INVALID_OOB_CODE")
            let user = try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(passed)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect(user["email"] as? String == "bob@example.net")
            if store == .sqlite {
                let events = try await SQLiteStore(path: workspace.databasePath).read {
                    try await $0.auditEvents(email: try #require(EmailAddress("bob@example.net")), limit: 50)
                }
                #expect(events.filter { $0.kind == .undosCancelled }.map(\.detail) == ["1 undo"])
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func aStaleSignInCancelsNothing(_ store: StoreKind) async throws {
        let clock = FixedClock(Date())
        try await withApp(AddressUndoTests.settings, store: store, clock: clock) { client, _, mailbox in
            let (idToken, undo) = try await Self.changeAddress(client, mailbox, clock: clock)
            let (_, enrolled) = try await client.enrollAuthenticator(idToken: idToken, at: clock.now)
            clock.advance(by: 301)
            let stale = try await Self.cancel(client, try #require(enrolled["idToken"] as? String))
            #expect(try Self.errorMessage(stale) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            // The undo still works.
            #expect(try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(undo)"}"#).status == .ok)
        }
    }

    @Test(arguments: paths)
    func everyPathFamilyAsksForTheIDToken(_ path: String) async throws {
        try await withApp { client, _, _ in
            let missing = try await Self.cancel(client, nil, path: path)
            #expect(missing.status == .badRequest)
            #expect(try Self.errorMessage(missing) == "INVALID_ID_TOKEN")
            #expect(try Self.errorMessage(try await Self.cancel(client, "not.a.token", path: path)) == "INVALID_ID_TOKEN")
        }
    }
}
