import Foundation
import Hummingbird
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Builds the app through `buildApplication` in a fresh workspace, on a fresh store of `store`'s kind, and runs `body`
/// against it.
func withApp(
    _ overrides: [String: Any] = [:], store: StoreKind = .sqlite, clock: any WallClock = FixedClock(), logger: Logger? = nil,
    testing: TestingSetup = .router, _ body: @Sendable (any TestClientProtocol, TestWorkspace, Mailbox) async throws -> Void
) async throws {
    try await withWorkspace { workspace in
        let configuration = try await store.configuration(in: workspace, overrides)
        try await initialize(configuration, now: clock.now)
        let app = try await buildApplication(
            configuration, clock: clock, logger: logger, templates: TestTemplates.library(for: configuration.templatesDirectory))
        let mailbox = Mailbox(directory: workspace.outboxDirectory)
        try await app.test(testing) { client in
            try await body(client, workspace, mailbox)
        }
    }
}

/// What `latchkey init` does before a production server first starts: the server secret, and a signing key in the store
/// active from `now` (the test's clock, which a server reading it must find the key active at). An RSA key is the test
/// run's shared one, so that `init` finds it rather than make one.
func initialize(_ configuration: AppConfiguration, now: Date = Date()) async throws {
    let secret = try ServerSecret.load(configuration.security, creatingIfMissing: true)
    let opened = try await makeStore(configuration, logger: Logger(label: "test"))
    defer { withExtendedLifetime(opened) {} }
    if configuration.tokens.algorithm == .rs256 {
        let key = try await TestSigningKey.rs256().sealed(with: secret, createdAt: now, activatesAt: now)
        _ = try await opened.store.write { try await $0.addSigningKey(key) }
    }
    _ = try await configuration.prepareSigningKeys(in: opened.store, secret: secret, creatingIfMissing: true, now: now, logger: Logger(label: "test"))
}

/// The header of a compact JWS, decoded without checking anything.
func jwsHeader(of token: String) throws -> [String: Any] {
    let header = try #require(token.split(separator: ".").first.map(String.init))
    let base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        + String(repeating: "=", count: (4 - header.count % 4) % 4)
    let json = try #require(Data(base64Encoded: base64))
    return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
}

/// The `kid` in the header of a compact JWS.
func keyID(of token: String) throws -> String {
    try #require(try jwsHeader(of: token)["kid"] as? String)
}
