import ArgumentParser
import Hummingbird
import Latchkey
import LatchkeyDomain
import Logging
import Foundation

/// The `latchkey` command: loads configuration and runs the service, nothing more.
@main
struct LatchkeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latchkey",
        abstract: "Self-hosted email-link sign-in, speaking Firebase's Identity Toolkit API.",
        version: Release.version,
        subcommands: [
            Serve.self, InitCommand.self, CheckConfig.self, KeysCommand.self, OutboxCommand.self, MigrateCommand.self, AuditCommand.self,
            SweepCommand.self, CopyCommand.self, CoolOffCommand.self, ImportCommand.self, ExportCommand.self, ServiceAccountCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// Options every subcommand shares.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "Path of the JSON configuration file.")
    var config = "config/latchkey.json"

    /// The configuration, or every problem in it printed with its key and a failing exit.
    func load() async throws -> AppConfiguration {
        do {
            return try await AppConfiguration.load(path: config)
        } catch let problems as ConfigProblems {
            printError("\(config): configuration has problems:\n" + problems.messages.map { "  - \($0)" }.joined(separator: "\n"))
            throw ExitCode.failure
        } catch {
            printError("\(config): cannot read configuration: \(error)")
            throw ExitCode.failure
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP service and the outbox.")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = try await options.load()
        switch configuration.observability.logFormat {
        case .text: LoggingSystem.bootstrap(StreamLogHandler.standardError)
        case .json: LoggingSystem.bootstrap(JSONLogHandler.init)
        }
        do {
            let app = try await buildApplication(configuration)
            try await app.runUntilStopped(
                shutdownTimeout: .seconds(configuration.server.shutdownTimeoutSeconds), explaining: configuration.server.listenFailure)
        } catch let error as StartupError {
            printError("latchkey: \(error)")
            throw ExitCode.failure
        }
    }
}

struct CheckConfig: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a configuration file and print every problem with its key, and what else `serve` would refuse.")

    @OptionGroup var options: ConfigOption

    @Flag(help: "Also open the store as `serve` does (connecting to PostgreSQL, applying pending migrations) and look for its signing keys.")
    var connect = false

    func run() async throws {
        let configuration = try await options.load()
        for warning in configuration.identityProviders.warnings { printError("warning: \(warning)") }
        var logger = Logger(label: "latchkey") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning  // PostgreSQL's connection attempts are the refusal's to tell
        let (refusals, warnings) = await serveRefusals(configuration, connect: connect, logger: logger)
        for warning in warnings { printError("warning: \(warning)") }
        guard refusals.isEmpty else {
            printError("\(options.config): `serve` would refuse to start:\n" + refusals.map { "  - \($0)" }.joined(separator: "\n"))
            throw ExitCode.failure
        }
        print("\(options.config): OK" + (connect ? "" : " (the store was not opened: --connect opens it)"))
    }
}

func printError(_ message: String) {
    var standardError = StandardErrorStream()
    print(message, to: &standardError)
}

/// Lets `print` write to standard error.
struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
