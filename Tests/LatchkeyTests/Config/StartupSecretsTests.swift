import Foundation
import Latchkey
import Testing

/// Production never makes its own server secret or signing keys: a second instance, or a restore without `data/`,
/// would publish other keys and lose every link and session. Development mode does, for a first run.
@Suite struct StartupSecretsTests {
    @Test func productionRefusesToStartWithoutThemAndNamesLatchkeyInit() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "production"])
            let error = await #expect(throws: StartupError.self) { _ = try await buildApplication(configuration) }
            #expect(error?.description.contains("latchkey init") == true)
            #expect(!FileManager.default.fileExists(atPath: configuration.security.serverSecretFile))
            #expect(!FileManager.default.fileExists(atPath: configuration.tokens.keyDirectory))
            #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))

            _ = try configuration.loadSecrets(creatingIfMissing: true)
            _ = try await buildApplication(configuration)
        }
    }

    @Test func productionRefusesAnAlgorithmWithoutAKey() async throws {
        try await withWorkspace { workspace in
            _ = try await workspace.configuration().loadSecrets(creatingIfMissing: true)
            let es256 = try await workspace.configuration(["tokens.algorithm": "ES256"])
            await #expect(throws: StartupError.self) { _ = try await buildApplication(es256) }
        }
    }

    @Test func developmentModeCreatesThemOnFirstStart() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["mode": "development"])
            _ = try await buildApplication(configuration)
            #expect(FileManager.default.fileExists(atPath: configuration.security.serverSecretFile))
            let keys = try SigningKeys.load(directory: configuration.tokens.keyDirectory, creatingIfMissing: false)
            #expect(keys.current != nil)
        }
    }
}
