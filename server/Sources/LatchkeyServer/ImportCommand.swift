import ArgumentParser
import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey import --firebase`: the users of a `firebase auth:export` file, with their passwords, into the configured
/// store. Running it again with the same file changes nothing.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the users of a `firebase auth:export` file (JSON or CSV), with their password hashes and providers.")

    @OptionGroup var options: ConfigOption

    @Option(help: "The file `firebase auth:export` wrote: .json, or .csv.")
    var firebase: String

    @Option(help: "A file with the password hash parameters Firebase's console shows (hash_config { algorithm: SCRYPT, … }).")
    var hashConfig: String?

    func run() async throws {
        let configuration = try await options.load()
        // Imported hashes are sealed under the server secret of the store they go into: both must exist already.
        let secret = try existingServerSecret(configuration)
        let store = try await openExistingStore(configuration).store
        let report: FirebaseImport.Report
        do {
            let file = try FirebaseExportFile.read(try Self.contents(of: firebase), named: firebase)
            let hashing = try hashConfig.map { try FirebaseHashConfig(String(decoding: try Self.contents(of: $0), as: UTF8.self)) }
            let hasher = PasswordHasher(cost: configuration.security.passwordHashCost, secret: secret, limits: configuration.security.passwordHashing)
            let clock = SystemWallClock()
            report = try await FirebaseImport(importer: AccountImporter(store: store, hasher: hasher, clock: clock), clock: clock)
                .run(file, hashing: hashing)
        } catch let error as FirebaseExportFile.Unreadable {
            printError("latchkey import: \(firebase): \(error)")
            throw ExitCode.failure
        } catch let error as FirebaseHashConfig.Unreadable {
            printError("latchkey import: nothing imported: \(hashConfig ?? "the hash configuration"): \(error)")
            throw ExitCode.failure
        } catch let error as StartupError {
            printError("latchkey import: \(error)")
            throw ExitCode.failure
        } catch {
            // Batches are committed one by one: those before the failure stay, and count as unchanged next time.
            printError("latchkey import: stopped: \(error). Users before the failure are imported; the same command again goes on from there.")
            throw ExitCode.failure
        }
        print("imported \(report.imported), unchanged \(report.unchanged), refused \(report.refused.count)")
        if firebase.lowercased().hasSuffix(".csv") {
            print("note: a CSV export carries no second factors: users with SMS second factors came without them (the JSON export lists them)")
        }
        if report.imported == 0, report.refused.isEmpty { print("nothing to change: every user is already here") }
        guard !report.refused.isEmpty else { return }
        print("refused (user number in the file, uid, reason):")
        for refusal in report.refused {
            // A uid is outside text: nothing in it may drive the terminal.
            print("  \(refusal.line)\t\(refusal.localID.displaySafe)\t\(refusal.reason)")
        }
        throw ExitCode.failure
    }

    static func contents(of path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw StartupError("cannot read \(path)") }
        return data
    }
}
