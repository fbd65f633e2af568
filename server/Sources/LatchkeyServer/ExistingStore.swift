import ArgumentParser
import Latchkey
import LatchkeyDomain
import Logging

/// The store a maintenance command works on: one that exists already (only `serve` and `init` create one), named on
/// standard error before the command's own output, so a run against an unexpected database shows at once.
/// A store that cannot be opened ends the command with the reason and a failing exit.
func openExistingStore(_ configuration: AppConfiguration, logger: Logger = Logger(label: "latchkey")) async throws -> OpenedStore {
    do {
        let opened = try await makeStore(configuration, creatingIfMissing: false, logger: logger)
        printError("store: \(opened.summary)")
        return opened
    } catch let error as StartupError {
        printError("latchkey: \(error)")
        throw ExitCode.failure
    }
}

/// The server secret a maintenance command needs: one that exists already (only `serve` in development and `init`
/// create one), or the reason and a failing exit.
func existingServerSecret(_ configuration: AppConfiguration) throws -> ServerSecret {
    do {
        return try ServerSecret.load(configuration.security, creatingIfMissing: false)
    } catch let error as StartupError {
        printError("latchkey: \(error)")
        throw ExitCode.failure
    }
}
