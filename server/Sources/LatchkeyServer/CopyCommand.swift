import ArgumentParser
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey copy`: moves a deployment to another store. Everything in the store one configuration names (accounts,
/// identities, sessions and refresh tokens, pending requests, outbox, audit events, rate counters, signing keys) goes
/// into the empty store another names, rows as stored, and each table's count is printed.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy everything from the store one configuration names into the empty store another names (stop the instances first).")

    @Option(help: "The configuration file of the store to copy from.")
    var from: String

    @Option(help: "The configuration file of the store to copy into: an empty database, with the same server secret as --from.")
    var to: String

    func run() async throws {
        let source = try await ConfigOption.parse(["--config", from]).load()
        let target = try await ConfigOption.parse(["--config", to]).load()
        // Which table is being copied goes to standard error as it happens; standard output gets the counts.
        let logger = Logger(label: "latchkey") { StreamLogHandler.standardError(label: $0) }
        let counts: [StoreCopier.TableCount]
        let summaries: (from: String, to: String)
        do {
            let sourceSecret = try ServerSecret.load(source.security, creatingIfMissing: false)
            let targetSecret = try secret(ofTarget: target)
            let origin = try await makeStore(source, creatingIfMissing: false, logger: logger)
            let destination = try await makeStore(target, logger: logger)
            summaries = (origin.summary, destination.summary)
            counts = try await StoreCopier(from: origin.store, secret: sourceSecret, to: destination.store, secret: targetSecret, logger: logger)
                .copy()
        } catch let error as StartupError {
            printError("latchkey copy: \(error)")
            throw ExitCode.failure
        } catch let refusal as StoreCopyRefusal {
            printError("latchkey copy: \(refusal)")
            throw ExitCode.failure
        } catch {
            printError(
                "latchkey copy: the copy failed: \(error). If it had begun writing, the target holds part of the copy: "
                    + "empty it (a new database, or remove the SQLite file) before trying again.")
            throw ExitCode.failure
        }
        print("copied \(summaries.from) to \(summaries.to)")
        print("table\trows")
        for count in counts {
            print("\(count.table.name)\t\(count.rows)")
        }
    }

    /// The target's secret, which must already be the source's: `latchkey init` there would make a new one (and a
    /// signing key, so the target would no longer be empty).
    private func secret(ofTarget target: AppConfiguration) throws -> ServerSecret {
        do {
            return try ServerSecret.load(target.security, creatingIfMissing: false)
        } catch let error as StartupError {
            throw StartupError(
                "\(to): \(error). For a copy, give the target the source's secret instead (the same security.serverSecretFile "
                    + "contents, or LATCHKEY_SECURITY_SERVER_SECRET) and do not run `latchkey init` on it.")
        }
    }
}
