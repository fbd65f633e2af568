import ArgumentParser
import Latchkey

/// `latchkey init`: creates the server secret and a signing key of the configured algorithm where none exist, and
/// says what the service will use. `serve` in production never creates them itself.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create the server secret and a signing key where none exist (run once before serving in production).")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = try await options.load()
        let keys: SigningKeys
        do {
            keys = try configuration.loadSecrets(creatingIfMissing: true).keys
        } catch let error as StartupError {
            printError("latchkey: \(error)")
            throw ExitCode.failure
        }
        let secret = configuration.security.serverSecret == nil ? configuration.security.serverSecretFile : "LATCHKEY_SECURITY_SERVER_SECRET"
        print("server secret: \(secret)")
        for key in keys.keys {
            let role = key.id == keys.current?.id ? "signs new tokens" : "verifies"
            print("signing key \(key.id) (\(key.algorithm.rawValue), \(role)) in \(configuration.tokens.keyDirectory)")
        }
    }
}
