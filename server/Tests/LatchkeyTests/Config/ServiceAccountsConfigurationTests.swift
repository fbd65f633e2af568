import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct ServiceAccountsConfigurationTests {
    /// What `latchkey service-account create` prints is an item the configuration takes, with the account's project.
    @Test func theEntryTheCommandPrintsIsRead() async throws {
        let credential = try ServiceAccountCredential(name: "backend", projectID: "demo")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(credential.configurationEntry.utf8)) as? [String: Any])
        try await withWorkspace { workspace in
            let google: [String: Any] = [
                "email": "robot@other.iam.gserviceaccount.com", "keysURL": "https://www.googleapis.com/robot/v1/metadata/x509/r",
            ]
            let accounts = try await workspace.configuration(["serviceAccounts": [entry, google]]).serviceAccounts.accounts
            #expect(accounts.map(\.email) == ["backend@demo.latchkey.invalid", "robot@other.iam.gserviceaccount.com"])
            #expect(accounts.map(\.projectID) == ["demo", "other"])
            #expect(accounts[0].keys.map(\.id) == [credential.keyID] && accounts[1].keysURL?.host() == "www.googleapis.com")
        }
    }

    static let publicKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+Q==
        -----END PUBLIC KEY-----
        """

    /// Each account as JSON text (Sendable, unlike `[String: Any]`), and the start of the expected problem.
    static let problems: [(String, String)] = [
        (#"[{"email":"not an address","keysURL":"https://keys.example.com"}]"#, "serviceAccounts.0.email:"),
        (#"[{"email":"a@example.com"}]"#, "serviceAccounts.0: needs keys or keysURL"),
        (#"[{"email":"a@example.com","keysURL":"http://keys.example.com"}]"#, "serviceAccounts.0.keysURL:"),
        (#"[{"email":"a@example.com","keys":[{"id":"k","pem":"nonsense"}]}]"#, "serviceAccounts.0.keys.0.pem:"),
        // An EC key: custom tokens are RS256.
        (
            #"[{"email":"a@example.com","keys":[{"id":"k","pem":"\#(publicKey.replacingOccurrences(of: "\n", with: "\\n"))"}]}]"#,
            "serviceAccounts.0.keys.0.pem:"
        ),
        (#"[{"email":"a@example.com","keys":[{"pem":"nonsense"}]}]"#, "serviceAccounts.0.keys.0.id:"),
        (
            #"[{"email":"a@example.com","keysURL":"https://k.example.com"},{"email":"a@example.com","keysURL":"https://k.example.com"}]"#,
            "serviceAccounts: lists the same email twice"
        ),
    ]

    @Test(arguments: problems)
    func badAccountsAreReportedWithTheirKey(_ json: String, _ expected: String) async throws {
        let accounts = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
        try await withWorkspace { workspace in
            do {
                _ = try await workspace.configuration(["serviceAccounts": accounts])
                Issue.record("expected a problem with \(expected)")
            } catch let problems as ConfigProblems {
                #expect(problems.messages.contains { $0.hasPrefix(expected) }, "\(problems)")
            }
        }
    }
}
