import Configuration
import Foundation

/// Every problem found while reading the configuration, each naming the key that causes it.
///
/// Reading goes on after a problem so that `check-config` can list them all at once.
package struct ConfigProblems: Error, Sendable, CustomStringConvertible {
    package private(set) var messages: [String] = []

    package var isEmpty: Bool { messages.isEmpty }

    mutating func add(_ key: String, _ problem: String) {
        messages.append("\(key): \(problem)")
    }

    package var description: String {
        messages.joined(separator: "\n")
    }

    /// The same problems, each of a key an environment variable sets named with that variable: the value at fault is
    /// the variable's, not the file's.
    func namingOverrides(in environment: [String: String]) -> ConfigProblems {
        var named = ConfigProblems()
        named.messages = messages.map { message in
            guard let colon = message.firstIndex(of: ":") else { return message }
            let variable = Self.variable(overriding: String(message[..<colon]))
            guard environment[variable] != nil else { return message }
            return "\(message[..<colon]) (set by the environment variable \(variable), which overrides the file)\(message[colon...])"
        }
        return named
    }

    /// `LATCHKEY_` plus the key in upper snake case, as swift-configuration's environment provider names it:
    /// `server.port` → `LATCHKEY_SERVER_PORT`, `publicURL` → `LATCHKEY_PUBLIC_URL`.
    static func variable(overriding key: String) -> String {
        var name = "LATCHKEY_"
        var previous: Character?
        for character in key {
            if let previous, previous.isLowercase, character.isUppercase { name.append("_") }
            name += character.isLetter || character.isNumber ? character.uppercased() : "_"
            previous = character
        }
        return name
    }
}

/// Typed reads that record a wrong type as a problem instead of silently using the default.
///
/// The reader also remembers every key it was asked for, present or not: what Latchkey reads is its schema, so a key
/// in the file that was never asked for is unknown (`reportUnknownKeys(in:)`). A section read only under some
/// condition must still be asked for otherwise, through `learnKeys(readBy:)`.
struct ConfigSectionReader {
    let reader: ConfigReader
    var problems = ConfigProblems()
    private(set) var knownKeys: Set<String> = []

    /// swift-configuration reports a missing key and a mistyped one through the same thrown
    /// error type (whose cases are not public), so the missing case is told apart by its text.
    private func isMissing(_ error: any Error) -> Bool {
        String(describing: error).hasPrefix("Missing required config value")
    }

    private mutating func read<T>(_ key: String, _ typeName: String, _ body: () throws -> T) -> T? {
        knownKeys.insert(key)
        do {
            return try body()
        } catch {
            if !isMissing(error) { problems.add(key, "expected \(typeName)") }
            return nil
        }
    }

    mutating func string(_ key: String, isSecret: Bool = false) -> String? {
        let reader = reader
        return read(key, "a string") { try reader.requiredString(forKey: ConfigKey(key), isSecret: isSecret) }
    }

    mutating func int(_ key: String) -> Int? {
        let reader = reader
        return read(key, "an integer") { try reader.requiredInt(forKey: ConfigKey(key)) }
    }

    /// A number, integral or not.
    mutating func double(_ key: String) -> Double? {
        let reader = reader
        knownKeys.insert(key)
        if let number = try? reader.requiredInt(forKey: ConfigKey(key)) { return Double(number) }
        return read(key, "a number") { try reader.requiredDouble(forKey: ConfigKey(key)) }
    }

    mutating func bool(_ key: String) -> Bool? {
        let reader = reader
        return read(key, "true or false") { try reader.requiredBool(forKey: ConfigKey(key)) }
    }

    /// A string, or an integer given as one (ids people write either way, such as an App Store id).
    mutating func stringOrInteger(_ key: String) -> String? {
        knownKeys.insert(key)
        if let number = try? reader.requiredInt(forKey: ConfigKey(key)) { return String(number) }
        return string(key)
    }

    /// Whether `key` holds a value of any type.
    mutating func isPresent(_ key: String) -> Bool {
        knownKeys.insert(key)
        do {
            _ = try reader.requiredString(forKey: ConfigKey(key))
            return true
        } catch {
            return !isMissing(error)
        }
    }

    /// Runs `body` on a scratch copy of this reader and keeps only the keys it asked for, dropping its problems and
    /// values: for a section that is used only under some condition (`mail.smtp` when `mail.transport` is `"smtp"`),
    /// so that a file keeping that section for later is not told its keys are unknown.
    mutating func learnKeys(readBy body: (inout ConfigSectionReader) -> Void) {
        var scratch = self
        body(&scratch)
        knownKeys = scratch.knownKeys
    }

    mutating func stringArray(_ key: String, isSecret: Bool = false) -> [String]? {
        let reader = reader
        return read(key, "a list of strings") { try reader.requiredStringArray(forKey: ConfigKey(key), isSecret: isSecret) }
    }

    /// An integer in `range`, or `defaultValue` when the key is absent.
    mutating func int(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Int {
        guard let value = int(key) else { return defaultValue }
        guard range.contains(value) else {
            problems.add(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            return defaultValue
        }
        return value
    }

    /// One of `choices`, or `defaultValue` when the key is absent.
    mutating func choice<T: RawRepresentable<String> & CaseIterable>(_ key: String, default defaultValue: T) -> T {
        guard let raw = string(key) else { return defaultValue }
        guard let value = T(rawValue: raw) else {
            let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            problems.add(key, "must be one of \(names), got \"\(raw)\"")
            return defaultValue
        }
        return value
    }
}
