import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

/// Codes and tokens never sit in the database or the logs in a usable form.
@Suite struct SecretsAtRestTests {
    /// Runs the whole flow through every kind of endpoint (user, admin, the landing page) and returns every secret
    /// it handed out.
    func runFlow(_ client: any TestClientProtocol, _ mailbox: Mailbox, messageIndex: Int = 0) async throws -> [String] {
        try await client.sendLink()
        let code = try await mailbox.code(at: messageIndex)
        let signIn = try await client.complete(code: code).json
        let refresh = try #require(signIn["refreshToken"] as? String)
        let refreshed = try await client.refresh(refresh).json
        _ = try await client.refresh(refresh)
        let password = "correct-horse-battery"
        let signUp = try await client.post("/v1/accounts:signUp", json: #"{"email":"carol@example.com","password":"\#(password)"}"#).json
        _ = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"carol@example.com","password":"\#(password)"}"#)
        _ = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"carol@example.com","password":"wrong-\#(password)"}"#)
        // The replayed refresh above ended Alice's sessions; Carol's account goes through the rest.
        let newPassword = "staple-battery-horse"
        let updated = try await client.post(
            "/v1/accounts:update", json: #"{"idToken":"\#(try #require(signUp["idToken"] as? String))","password":"\#(newPassword)"}"#
        ).json
        let carolToken = try #require(updated["idToken"] as? String)
        try await client.post("/v1/accounts:createAuthUri", json: #"{"identifier":"carol@example.com","continueUri":"https://app.example.com/"}"#)
        try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(carolToken)"}"#)
        _ = try await client.execute(
            uri: "/__/auth/action?mode=signIn&oobCode=\(code)&apiKey=\(TestWorkspace.apiKey)&continueUrl=https%3A%2F%2Fapp.example.com%2Ffinish",
            method: .get)
        let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
        let generated = try await client.post(
            "/v1/accounts:sendOobCode",
            json: #"{"requestType":"EMAIL_SIGNIN","email":"dave@example.com","continueUrl":"https://app.example.com/finish","returnOobLink":true}"#,
            headers: admin
        ).json
        let generatedLink = try #require(generated["oobLink"] as? String)
        try await client.post("/v1/projects/test-project/accounts:lookup", json: #"{"email":["carol@example.com"]}"#, headers: admin)
        try await client.post("/v1/accounts:delete", json: #"{"idToken":"\#(carolToken)"}"#)
        return [
            code, refresh, try #require(signIn["idToken"] as? String), try #require(refreshed["refresh_token"] as? String), password,
            try #require(signUp["refreshToken"] as? String), newPassword, try #require(updated["refreshToken"] as? String),
            generatedLink, try #require(URLComponents(string: generatedLink)?.queryItems?.first { $0.name == "oobCode" }?.value),
        ]
    }

    @Test func theDatabaseHoldsOnlyHashesAndSealedMail() async throws {
        try await withApp { client, workspace, mailbox in
            try await client.sendLink(to: "pending@example.com")
            _ = try await mailbox.waitForMessages(1)
            let secrets = try await runFlow(client, mailbox, messageIndex: 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path).filter { $0.hasPrefix("latchkey.sqlite") }
            let bytes = try files.map { try Data(contentsOf: workspace.directory.appendingPathComponent($0)) }.reduce(Data(), +)
            let contents = String(decoding: bytes, as: UTF8.self)
            #expect(!contents.isEmpty)
            for secret in secrets where !secret.hasPrefix("eyJ") {
                #expect(!contents.contains(secret))
            }
            #expect(!contents.contains("/__/auth/action"))
        }
    }

    @Test(arguments: [AppConfiguration.Mode.production, .development])
    func logsNeverCarryCodesTokensOrLinksOutsideDevelopmentMode(_ mode: AppConfiguration.Mode) async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        try await withApp(["mode": mode.rawValue, "logLevel": "trace"], logger: logger) { client, _, mailbox in
            let secrets = try await runFlow(client, mailbox)
            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count > 5)
            // Development mode logs the two links issued (Alice's and the admin's for Dave), as emulators do.
            let linkLines = lines.filter { $0.contains("oobCode=") }
            #expect(linkLines.count == (mode == .development ? 2 : 0))
            #expect(lines.contains { $0.contains("path=/__/auth/action") || $0.contains(#""path": /__/auth/action"#) })
            for line in lines where !linkLines.contains(line) {
                for secret in secrets { #expect(!line.contains(secret)) }
                for address in ["alice@example.com", "carol@example.com", "dave@example.com"] { #expect(!line.contains(address)) }
            }
        }
    }
}
