import Foundation
import Latchkey
import Testing

/// Keys in the configuration file that Latchkey never reads are refused, with the key that was probably meant.
@Suite struct UnknownKeyTests {
    static func problems(_ overrides: [String: Any], environment: [String: String] = [:]) async throws -> [String] {
        try await withWorkspace { try await $0.problems(overrides, environment: environment) }
    }

    @Test(arguments: [
        ("emailLink.codeLifetimSeconds", "emailLink.codeLifetimeSeconds"),
        ("server.prot", "server.port"),
        ("projectID", "projectId"),
        ("tokenz.issuer", "tokens.issuer"),
        ("mail.smtp.ulr", "mail.smtp.url"),
        ("apps.ios", "apps.ios.0.teamId"),
        ("rateLimits.sendPerEmail", "rateLimits.sendPerEmail.0.windowSeconds"),
    ])
    func aMisspelledKeyIsRefusedWithTheKeyItResembles(_ written: String, _ meant: String) async throws {
        // The list keys are written as lists of objects, with a misspelled field in the object.
        let value: Any =
            switch written {
            case "apps.ios": [["teamID": "ABCDE12345", "bundleId": "com.example.ios"]]
            case "rateLimits.sendPerEmail": [["limit": 1, "windowSecond": 60]]
            default: 600
            }
        let messages = try await Self.problems([written: value])
        let misspelled = written == "apps.ios" ? "apps.ios.0.teamID" : written == "rateLimits.sendPerEmail" ? "\(written).0.windowSecond" : written
        #expect(messages.contains("\(misspelled): unknown key; did you mean `\(meant)`?"), "\(messages)")
    }

    @Test func aKeyLikeNoOtherIsRefusedWithoutASuggestion() async throws {
        let messages = try await Self.problems(["frobnicate": true, "tokenz": ["lifetime": 5]])
        #expect(messages.contains("frobnicate: unknown key: Latchkey has no such setting"), "\(messages)")
        #expect(messages.contains("tokenz.lifetime: unknown key: Latchkey has no such setting"), "\(messages)")
    }

    @Test func sectionsMayBeEmptyOrNullButNotAValue() async throws {
        #expect(try await Self.problems(["tokens": [String: Any](), "cors": NSNull(), "mail.fromName": NSNull()]).isEmpty)
        #expect(try await Self.problems(["server": 5]) == ["server: is a section: expected an object"])
        #expect(try await Self.problems(["server.port.number": 5]) == ["server.port.number: unknown key: `server.port` is a value, not a section"])
    }

    @Test func aDottedNameInTheFileIsRefused() async throws {
        // JSON would allow {"server.port": 1}, but configuration keys split at dots, so it could never be read.
        let messages = try await withWorkspace { workspace in
            var settings = workspace.settings()
            settings["server.port"] = 9999
            let file = workspace.directory.appendingPathComponent("dotted.json")
            try JSONSerialization.data(withJSONObject: settings).write(to: file)
            do {
                _ = try await AppConfiguration.load(path: file.path, environment: [:])
                return [String]()
            } catch let problems as ConfigProblems {
                return problems.messages
            }
        }
        #expect(messages == ["server.port: unknown key: write sections as nested objects, not dotted names"])
    }

    @Test func anSMTPSectionKeptForLaterIsKnownWithTheFileTransport() async throws {
        let smtp: [String: Any] = ["url": "smtp://127.0.0.1:2525", "tls": "none", "timeoutSeconds": 5, "caFile": "/nonexistent.pem"]
        #expect(try await Self.problems(["mail.transport": "file", "mail.smtp": smtp]).isEmpty)
    }

    @Test func environmentVariablesAreNotCheckedForUnknownKeys() async throws {
        #expect(try await Self.problems([:], environment: ["LATCHKEY_BIN": "/usr/bin/true", "LATCHKEY_FROBNICATE": "1"]).isEmpty)
    }

    @Test(arguments: ["latchkey.json", "production.example.json"])
    func theShippedConfigurationsHaveNoUnknownKey(_ name: String) async throws {
        let path = TestWorkspace.repositoryRoot.appendingPathComponent("config/\(name)").path
        _ = try await AppConfiguration.load(path: path, environment: ["SMTP_PASSWORD": "from latchkey.env"])
    }
}
