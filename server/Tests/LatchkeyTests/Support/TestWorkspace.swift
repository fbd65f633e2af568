import Foundation
import Latchkey

/// A throwaway directory with a configuration file in it, removed when the test ends.
struct TestWorkspace {
    let directory: URL

    /// The repository's root, above the server package (server/Tests/LatchkeyTests/Support/this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let apiKey = "test-api-key"
    static let adminToken = "test-admin-token-0123456789"
    static let publicURL = "https://auth.example.com"

    var databasePath: String { directory.appendingPathComponent("latchkey.sqlite").path }
    var outboxDirectory: URL { directory.appendingPathComponent("outbox") }
    var textsDirectory: URL { directory.appendingPathComponent("texts") }

    /// The settings every test starts from; `overrides` uses dotted keys (`emailLink.codeLifetimeSeconds`).
    func settings(_ overrides: [String: Any] = [:]) -> [String: Any] {
        var settings: [String: Any] = [
            "projectId": "test-project",
            "publicURL": Self.publicURL,
            "apiKeys": [Self.apiKey],
            "adminTokens": [Self.adminToken],
            "authorizedDomains": ["app.example.com", "localhost"],
            "templatesDirectory": TestTemplates.directory,
            "openAPIDocument": Self.repositoryRoot.appendingPathComponent("openapi.json").path,
            "storage": ["sqlite": ["path": databasePath]],
            // A busy machine's hashes may wait long for a thread: only `PasswordHashingQueueTests` sets a short wait.
            "security": [
                "serverSecretFile": directory.appendingPathComponent("server-secret").path, "passwordHashCost": 4, "passwordHashWaitMilliseconds": 60_000,
            ],
            "tokens": ["keyDirectory": directory.appendingPathComponent("keys").path],
            "mail": ["from": "no-reply@example.com", "file": ["directory": outboxDirectory.path]],
            "sms": ["file": ["directory": textsDirectory.path]],
            "server": ["port": 0],
            // Tests send many links from one address; `RateLimitTests` turns the limits back on.
            "rateLimits": [
                "sendPerEmail": [], "sendPerIP": [], "completePerIP": [], "signUpPerIP": [], "passwordPerIP": [], "passwordPerEmail": [],
                "apiKeyRequestsPerMinute": 0,
            ],
        ]
        for (key, value) in overrides {
            settings.setValue(value, atPath: key.split(separator: ".").map(String.init))
        }
        return settings
    }

    /// Writes `settings` as JSON and loads it the way `latchkey serve` does.
    func configuration(_ overrides: [String: Any] = [:], environment: [String: String] = [:]) async throws -> AppConfiguration {
        let file = directory.appendingPathComponent("latchkey.json")
        try JSONSerialization.data(withJSONObject: settings(overrides)).write(to: file)
        return try await AppConfiguration.load(path: file.path, environment: environment)
    }
}

/// Runs `body` with a fresh workspace and removes it afterwards, even when `body` throws.
func withWorkspace<T>(_ body: (TestWorkspace) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { try await body(TestWorkspace(directory: $0)) }
}

extension Dictionary where Key == String, Value == Any {
    fileprivate mutating func setValue(_ value: Any, atPath path: [String]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            self[first] = value
            return
        }
        var child = self[first] as? [String: Any] ?? [:]
        child.setValue(value, atPath: Array(path.dropFirst()))
        self[first] = child
    }
}

import GRDB

extension TestWorkspace {
    /// The server's database, opened the way a second process would: waiting for the server's write lock.
    func openDatabase() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: databasePath, configuration: configuration)
    }
}
