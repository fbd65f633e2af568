import Foundation
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

/// Codes and tokens never sit in the database or the logs in a usable form.
@Suite struct SecretsAtRestTests {
    /// Runs the whole flow and returns every secret it handed out.
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
        return [
            code, refresh, try #require(signIn["idToken"] as? String), try #require(refreshed["refresh_token"] as? String), password,
            try #require(signUp["refreshToken"] as? String),
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
            let linkLines = lines.filter { $0.contains("/__/auth/action") }
            #expect(linkLines.count == (mode == .development ? 1 : 0))
            for line in lines where !linkLines.contains(line) {
                for secret in secrets { #expect(!line.contains(secret)) }
                #expect(!line.contains("alice@example.com") && !line.contains("carol@example.com"))
            }
        }
    }
}
