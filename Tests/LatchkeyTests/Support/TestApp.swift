import Foundation
import Hummingbird
import HummingbirdTesting
import Latchkey
import Logging

/// Builds the app through `buildApplication` in a fresh workspace, on a fresh store of `store`'s kind, and runs `body`
/// against it.
func withApp(
    _ overrides: [String: Any] = [:], store: StoreKind = .sqlite, clock: FixedClock = FixedClock(), logger: Logger? = nil,
    testing: TestingSetup = .router, _ body: @Sendable (any TestClientProtocol, TestWorkspace, Mailbox) async throws -> Void
) async throws {
    try await withWorkspace { workspace in
        let configuration = try await store.configuration(in: workspace, overrides)
        // What `latchkey init` does before a production server first starts.
        _ = try configuration.loadSecrets(creatingIfMissing: true)
        let app = try await buildApplication(configuration, clock: clock, logger: logger)
        let mailbox = Mailbox(directory: workspace.outboxDirectory)
        try await app.test(testing) { client in
            try await body(client, workspace, mailbox)
        }
    }
}
