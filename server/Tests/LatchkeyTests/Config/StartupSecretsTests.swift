import Foundation
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Production never makes its own server secret or signing key: a second instance, or a restore without them, would
/// publish another key and lose every link and session. Development mode does, for a first run.
@Suite struct StartupSecretsTests {
    @Test func productionRefusesToStartWithoutThemAndNamesLatchkeyInit() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "production"])
            let error = await #expect(throws: StartupError.self) { _ = try await buildApplication(configuration) }
            #expect(error?.description.contains("latchkey init") == true)
            #expect(!FileManager.default.fileExists(atPath: configuration.security.serverSecretFile))
            #expect(!FileManager.default.fileExists(atPath: configuration.tokens.keyDirectory))
            #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))

            try await initialize(configuration)
            _ = try await buildApplication(configuration)
        }
    }

    @Test func productionRefusesASecretWithoutAKeyAndNamesLatchkeyInit() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "production"])
            _ = try ServerSecret.load(configuration.security, creatingIfMissing: true)
            let error = await #expect(throws: StartupError.self) { _ = try await buildApplication(configuration) }
            #expect(error?.description.contains("no active signing key in the store: run `latchkey init`") == true)
        }
    }

    /// `tokens.algorithm` no longer chooses the signing key, the store's newest key does (`SigningKeySchedule`): a
    /// setting that differs starts, creates no key (one active at once would sign before verifiers could fetch it) and
    /// says so, naming the rotation that moves to it.
    @Test func productionWithAnotherAlgorithmSignsWithTheStoredKeyAndWarns() async throws {
        try await withWorkspace { workspace in
            try await initialize(try await workspace.configuration())
            let stored = try await SQLiteStore(path: workspace.databasePath).read { try await $0.signingKeys() }
            let es256 = try await workspace.configuration(["tokens.algorithm": "ES256"])
            let handler = InMemoryLogHandler()
            _ = try await buildApplication(es256, logger: Logger(label: "test") { _ in handler })
            #expect(try await SQLiteStore(path: workspace.databasePath).read { try await $0.signingKeys() } == stored)
            let warning = try #require(handler.entries.first { $0.level == .warning && $0.message.description.contains("tokens.algorithm") })
            #expect(warning.message.description.contains("latchkey keys rotate"))
            #expect(warning.metadata["key.algorithm"]?.description == "RS256" && warning.metadata["tokens.algorithm"]?.description == "ES256")
            let starting = try #require(handler.entries.first { $0.message.description == "Latchkey starting" })
            #expect(starting.metadata["tokens"]?.description == "RS256")
        }
    }

    @Test func developmentModeCreatesThemOnFirstStart() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "development"])
            _ = try await buildApplication(configuration)
            #expect(FileManager.default.fileExists(atPath: configuration.security.serverSecretFile))
            let keys = try await SQLiteStore(path: workspace.databasePath).read { try await $0.signingKeys() }
            #expect(keys.map(\.algorithm) == [.rs256])
        }
    }

    /// Another instance's keys, sealed under another secret, stop start-up with a reason rather than a 500 per sign-in.
    @Test func aServerSecretThatOpensNoKeyStopsStartUp() async throws {
        try await withWorkspace { workspace in
            try await initialize(try await workspace.configuration(["mode": "production"]))
            let other = try await workspace.configuration(
                ["mode": "production", "security.serverSecret": "another-secret-of-at-least-32-bytes-0123456789"])
            let error = await #expect(throws: StartupError.self) { _ = try await buildApplication(other) }
            #expect(error?.description.contains("cannot be opened with this server secret") == true)
        }
    }

    /// A deployment from before keys moved into the database: its key files are imported once, keeping their ids, so the
    /// tokens they signed stay valid; after that the directory is not needed.
    @Test func theKeyDirectoryIsImportedIntoAStoreWithoutKeys() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "production"])
            _ = try ServerSecret.load(configuration.security, creatingIfMissing: true)
            let directory = URL(fileURLWithPath: configuration.tokens.keyDirectory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let files = try await [SigningKey.generate(.rs256), SigningKey.generate(.es256)]
            for key in files { try Data(key.pem.utf8).write(to: directory.appendingPathComponent("\(key.id).pem")) }

            let handler = InMemoryLogHandler()
            let app = try await buildApplication(configuration, logger: Logger(label: "test") { _ in handler })
            #expect(handler.entries.contains { $0.message.description.contains("imported") })
            try await app.test(.router) { client in
                let published = try await client.publishedKeyIDs()
                #expect(Set(published) == Set(files.map(\.id)))
            }
            let stored = try await SQLiteStore(path: workspace.databasePath).read { try await $0.signingKeys() }
            #expect(Set(stored.map(\.id)) == Set(files.map(\.id)))
            #expect(stored.allSatisfy { $0.activatesAt <= Date() })
            // The newest file of tokens.algorithm signs, as it did before, though the ES256 file was written after it.
            #expect(SigningKeySchedule(stored).signingKey(at: Date())?.id == files[0].id)

            try FileManager.default.removeItem(at: directory)
            _ = try await buildApplication(configuration)
        }
    }
}
