import ArgumentParser
import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey init`: creates the server secret where there is none, and an active signing key of `tokens.algorithm`
/// where no key is active (importing the PEM files of `tokens.keyDirectory` into a store without keys), and says what
/// the service will use. `serve` in production never creates them itself.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create the server secret and a signing key where none exist (run once before serving in production).")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = try await options.load()
        // What it did (a key imported or created) is logged to standard error; standard output says what is in place.
        let logger = Logger(label: "latchkey") { StreamLogHandler.standardError(label: $0) }
        let schedule: SigningKeySchedule
        do {
            let secret = try ServerSecret.load(configuration.security, creatingIfMissing: true)
            let store = try await makeStore(configuration, logger: logger).store
            _ = try await configuration.prepareSigningKeys(in: store, secret: secret, creatingIfMissing: true, now: Date(), logger: logger)
            schedule = SigningKeySchedule(try await SigningKeyVault(store: store, secret: secret).records())
        } catch let error as StartupError {
            printError("latchkey: \(error)")
            throw ExitCode.failure
        }
        let secret = configuration.security.serverSecret == nil ? configuration.security.serverSecretFile : "LATCHKEY_SECURITY_SERVER_SECRET"
        print("server secret: \(secret)")
        let now = Date()
        for key in schedule.keys where schedule.state(of: key, at: now) != .unpublished {
            print("signing key \(key.id) (\(key.algorithm.rawValue), \(schedule.describe(key, at: now)))")
        }
        if let newest = schedule.newestKey(unlike: configuration.tokens.algorithm) {
            printError("note: " + newest.algorithmNote(configured: configuration.tokens.algorithm))
        }
    }
}
