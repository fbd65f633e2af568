import ArgumentParser
import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey keys`: the ID-token signing keys in the store, which every instance on it publishes and signs with.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List or rotate the ID-token signing keys kept in the database.",
        subcommands: [List.self, Rotate.self], defaultSubcommand: List.self)

    /// `latchkey keys list`: every stored key with where it stands; nothing secret is printed, nor needed. When the
    /// newest key is not of `tokens.algorithm`, standard error says so (it signs all the same).
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the signing keys: id, algorithm, when each was created and activates, its state and how long it stays published.")

        @OptionGroup var options: ConfigOption

        func run() async throws {
            let configuration = try await options.load()
            let store = try await openExistingStore(configuration).store
            let schedule = SigningKeySchedule(try await store.read { try await $0.signingKeys() })
            guard !schedule.keys.isEmpty else {
                print("no signing keys in the store: run `latchkey init` once with the same --config")
                return
            }
            let now = Date()
            print("id\talgorithm\tcreated\tactivates\tstate\tpublished until")
            for key in schedule.keys {
                let fields = [
                    key.id, key.algorithm.rawValue, key.createdAt.formatted(.iso8601), key.activatesAt.formatted(.iso8601),
                    schedule.describe(key, at: now), schedule.publishedUntil(key)?.formatted(.iso8601) ?? "-",
                ]
                print(fields.joined(separator: "\t"))
            }
            if let newest = schedule.newestKey(unlike: configuration.tokens.algorithm) {
                printError("note: " + newest.algorithmNote(configured: configuration.tokens.algorithm))
            }
        }
    }

    /// `latchkey keys rotate`: a new key of `--algorithm` (else `tokens.algorithm`), published at once by every instance
    /// and signing after `tokens.rotationDelaySeconds`, whatever the algorithm of the key it replaces; that key stays
    /// published until its tokens and session cookies have expired. Moving between RS256 and ES256 is this rotation.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a signing key that every instance publishes within seconds and signs with after tokens.rotationDelaySeconds, "
                + "in place of the current one whatever its algorithm.")

        @OptionGroup var options: ConfigOption

        @Option(help: "The new key's algorithm, RS256 or ES256 (default: tokens.algorithm).")
        var algorithm: SigningAlgorithm?

        func run() async throws {
            let configuration = try await options.load()
            let secret = try existingServerSecret(configuration)
            let store = try await openExistingStore(configuration).store
            let tokens = configuration.tokens
            let key = try await SigningKeyVault(store: store, secret: secret).rotate(
                algorithm ?? tokens.algorithm, delay: TimeInterval(tokens.rotationDelaySeconds), now: Date())
            print("added signing key \(key.id) (\(key.algorithm.rawValue)): published now, signs from \(key.activatesAt.formatted(.iso8601))")
            if key.algorithm != tokens.algorithm {
                printError("note: " + key.algorithmNote(configured: tokens.algorithm))
            }
        }
    }
}

extension SigningAlgorithm: ExpressibleByArgument {}

extension SigningKeySchedule {
    /// Where `key` stands at `now`, as the commands print it; the key that signs new tokens says so.
    func describe(_ key: SigningKeyRecord, at now: Date) -> String {
        state(of: key, at: now).rawValue + (signingKey(at: now)?.id == key.id ? ", signs new tokens" : "")
    }
}
