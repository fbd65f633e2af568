import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey-store-bench`: the store's own ceiling for what one send and one completion write (`StoreReplay`), driven
/// without HTTP, JSON or signing from as many concurrent tasks as the HTTP benchmark has connections, through the same
/// store, write batcher, SQLite settings and store services as `latchkey serve` with the same configuration file.
/// Prints operations per second as JSON; `scripts/bench --scenarios ceiling` runs it and compares.
@main
struct StoreBench {
    static let usage = """
        usage: latchkey-store-bench --config FILE [--connections 64] [--duration 15] [--warmup 3] [--scenarios send,complete]
          Opens the database the configuration names (use a fresh one: it fills it) and prints operations per second as JSON.
        """

    static func main() async {
        do {
            try await run(try StoreBenchArguments(CommandLine.arguments.dropFirst()))
        } catch let error as StoreBenchArguments.Problem {
            FileHandle.standardError.write(Data("latchkey-store-bench: \(error.message)\n\(usage)\n".utf8))
            exit(64)
        } catch {
            FileHandle.standardError.write(Data("latchkey-store-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: StoreBenchArguments) async throws {
        let configuration = try await AppConfiguration.load(path: arguments.config)
        let secret = try ServerSecret.load(configuration.security, creatingIfMissing: false)
        var logger = Logger(label: "latchkey-store-bench")
        logger.logLevel = .warning
        let opened = try await makeStore(configuration, logger: logger)
        let replay = try makeReplay(configuration, store: opened.store, secret: secret, arguments: arguments)
        let load = Workload(replay: replay, secret: secret, tasks: arguments.connections)
        // The checkpointer and retention run beside the load, as they run beside the server.
        let report = try await withThrowingTaskGroup(of: Report?.self) { group in
            for service in opened.services {
                group.addTask {
                    try await service.run()
                    return nil
                }
            }
            var report = Report(connections: arguments.connections, durationSeconds: arguments.duration, store: opened.summary, scenarios: [:])
            for scenario in arguments.scenarios {
                report.scenarios[scenario.rawValue] = try await load.measure(scenario, warmup: arguments.warmup, duration: arguments.duration)
            }
            group.cancelAll()
            return report
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }

    /// A replay whose letter is one the service would seal for this configuration, sent from loopback as wrk's are.
    static func makeReplay(
        _ configuration: AppConfiguration, store: any Store, secret: ServerSecret, arguments: StoreBenchArguments
    ) throws -> StoreReplay {
        let settings = try ActionCodeSettings(
            continueURL: arguments.continueURL, canHandleCodeInApp: true, authorizedDomains: configuration.authorizedDomains, apps: configuration.apps
        )
        let requester = RequesterSummary(ipAddress: "127.0.0.1")
        let lifetime = TimeInterval(configuration.emailLink.codeLifetimeSeconds)
        let link = ActionLink(
            publicURL: configuration.publicURL, code: ServerSecret.makeToken(), apiKey: configuration.apiKeys.sorted().first ?? "",
            settings: settings, language: .english)
        let letter = SignInLetter(
            link: link, language: .english, expiresInMinutes: Int((lifetime / 60).rounded(.up)), requestedAt: Date(), requester: requester)
        return StoreReplay(
            store: store, limits: configuration.rateLimits.limits, secret: secret, clock: SystemWallClock(), codeLifetime: lifetime,
            settings: settings, sealedLetter: try secret.seal(letter.encoded()), requester: requester)
    }

    /// The JSON printed at the end.
    struct Report: Encodable {
        var connections: Int
        var durationSeconds: Int
        var store: String
        var scenarios: [String: LoadRun.Outcome]
    }
}
