import Foundation
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// `latchkey copy` in every direction this run can reach: a deployment populated over HTTP, copied, and served from
/// the copy with the code, the refresh token, the provider sign-in and the pending token it issued before.
@Suite(.outsideProcesses) struct StoreCopyTests {
    /// SQLite to SQLite always; from, to and within PostgreSQL when `scripts/test` started a server.
    static let directions: [(StoreKind, StoreKind)] = StoreKind.all.flatMap { from in StoreKind.all.map { (from, $0) } }

    @Test(arguments: directions)
    func aCopySignsInWithTheCodeAndRefreshesTheTokenIssuedBeforeIt(_ from: StoreKind, _ to: StoreKind) async throws {
        try await withWorkspace { workspace in
            // Running with the real time, with which the provider signs its tokens, however long the copy takes.
            let clock = RunningClock()
            let settings = try await CopyDeployment.settings()
            let source = try await from.configuration(in: workspace, settings)
            let target = try await to.configuration(in: workspace, settings.merging(["storage.sqlite.path": workspace.copyPath]) { $1 })
            let issued = try await CopyDeployment.populate(source, clock: clock)

            let counts = try await CopyDeployment.copy(source, to: target, pageSize: 2)
            #expect(counts.map(\.table) == CopiedTable.all)
            #expect(counts.filter { $0.rows == 0 }.isEmpty, "every table holds rows: \(counts)")
            #expect(try await CopyDeployment.rowCounts(source) == counts)
            #expect(try await CopyDeployment.rowCounts(target) == counts)

            try await CopyDeployment.serve(target, clock: clock) { client, _ in
                let signedIn = try await client.complete(email: "alice@example.com", code: issued.code)
                #expect(signedIn.status == .ok)
                #expect(try signedIn.json["isNewUser"] as? Bool == true)
                let refreshed = try await client.refresh(issued.refreshToken)
                #expect(refreshed.status == .ok)
                #expect(try refreshed.json["user_id"] as? String == issued.accountID)
                let provider = try await OIDCProviderMock.shared.value
                let redirect = try await provider.authorize(issued.authorizationURL, subject: "frank-copy-1")
                let frank = try await client.post(
                    "/v1/accounts:signInWithIdp", json: #"{"requestUri":"\#(redirect)","sessionId":"\#(issued.sessionID)"}"#)
                #expect(try frank.json["federatedId"] as? String == "frank-copy-1")
                let erin = try await client.post(
                    "/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"\#(issued.pendingToken)"}"#)
                #expect(try erin.json["federatedId"] as? String == "erin-copy-1" && erin.json["isNewUser"] == nil)
                // The authenticator's sealed secret opens in the copy: Dave's code of the next step finishes his sign-in.
                let dave = try await client.finishSecondFactor(
                    issued.pendingCredential, factorID: issued.authenticator.factorID, code: issued.authenticator.code(at: clock.now, steps: 1))
                #expect(dave.status == .ok, "\(dave.text)")
                let added = try await client.execute(
                    uri: CopyDeployment.runtimeProvider + "/oidc.runtime", method: .get, headers: CopyDeployment.admin)
                #expect(try added.json["clientSecret"] as? String == "runtime-secret")
            }

            let served = try await CopyDeployment.rowCounts(target)
            await #expect {
                try await CopyDeployment.copy(source, to: target)
            } throws: { error in
                guard case StoreCopyRefusal.targetNotEmpty(let occupied) = error else { return false }
                return occupied == served.filter { $0.rows > 0 }
            }
            #expect(try await CopyDeployment.rowCounts(target) == served)
        }
    }

    @Test func twoDifferentSecretsAreRefusedBeforeAnythingIsWritten() async throws {
        try await withWorkspace { workspace in
            let source = try await workspace.configuration()
            let target = try await workspace.configuration([
                "storage.sqlite.path": workspace.copyPath,
                "security.serverSecretFile": workspace.directory.appendingPathComponent("other-secret").path,
            ])
            try await initialize(source)
            _ = try ServerSecret.load(target.security, creatingIfMissing: true)
            await #expect(throws: StoreCopyRefusal.secretsDiffer) {
                try await CopyDeployment.copy(source, to: target)
            }
            #expect(try await CopyDeployment.rowCounts(target).allSatisfy { $0.rows == 0 })
        }
    }

    /// The source's configuration names the right secret file, but its data was sealed under another secret.
    @Test func aSourceSealedUnderAnotherSecretIsRefusedBeforeAnythingIsWritten() async throws {
        try await withWorkspace { workspace in
            let source = try await workspace.configuration()
            let target = try await workspace.configuration(["storage.sqlite.path": workspace.copyPath])
            _ = try ServerSecret.load(source.security, creatingIfMissing: true)
            let sealed = try ServerSecret(material: Data(repeating: 7, count: 32)).seal(Array("a letter".utf8))
            let message = OutboxMessage(recipient: .email(Fixture.alice), format: .mime, sealedContent: sealed, createdAt: Fixture.now)
            let opened = try await makeStore(source, logger: CopyDeployment.logger)
            try await opened.store.write { try await $0.enqueue(message) }

            await #expect {
                try await CopyDeployment.copy(source, to: target)
            } throws: { error in
                guard case StoreCopyRefusal.sealedUnderAnotherSecret(let table, let column) = error else { return false }
                return table.name == "outbox" && column.name == "sealed_message"
            }
            #expect(try await CopyDeployment.rowCounts(target).allSatisfy { $0.rows == 0 })
        }
    }
}

extension TestWorkspace {
    /// Where a SQLite copy goes, beside the workspace's own database.
    var copyPath: String { directory.appendingPathComponent("copy/latchkey.sqlite").path }
}
