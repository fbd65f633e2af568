/// The command line of `latchkey-store-bench`, read by hand: the target depends on Latchkey alone.
struct StoreBenchArguments {
    /// What is measured.
    enum Scenario: String {
        case send
        case complete
    }

    /// A command line that cannot be run, and why.
    struct Problem: Error {
        let message: String
    }

    var config = ""
    var connections = 64
    var duration = 15
    var warmup = 3
    var scenarios: [Scenario] = [.send, .complete]
    /// The benchmark's continue URL; its host must be one of the configuration's authorized domains.
    var continueURL = "https://app.example.com/done"

    init(_ arguments: ArraySlice<String>) throws(Problem) {
        var arguments = arguments
        while let name = arguments.popFirst() {
            guard let value = arguments.popFirst() else { throw Problem(message: "\(name) needs a value") }
            switch name {
            case "--config": config = value
            case "--connections": connections = try Self.positive(value, name)
            case "--duration": duration = try Self.positive(value, name)
            case "--warmup": warmup = try Self.positive(value, name)
            case "--continue-url": continueURL = value
            case "--scenarios":
                scenarios = try value.split(separator: ",").map { name throws(Problem) in
                    guard let scenario = Scenario(rawValue: String(name)) else { throw Problem(message: "unknown scenario \(name)") }
                    return scenario
                }
            default: throw Problem(message: "unknown option \(name)")
            }
        }
        guard !config.isEmpty else { throw Problem(message: "--config is required") }
    }

    private static func positive(_ value: String, _ name: String) throws(Problem) -> Int {
        guard let number = Int(value), number > 0 else { throw Problem(message: "\(name) takes a whole number above 0, not \(value)") }
        return number
    }
}
