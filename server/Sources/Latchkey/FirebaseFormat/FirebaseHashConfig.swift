import Foundation
import LatchkeyDomain
import LatchkeyWire

/// The password hash parameters Firebase's console shows (Authentication, Users, "Password hash parameters"):
///
///     hash_config {
///       algorithm: SCRYPT,
///       base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==,
///       base64_salt_separator: Bw==,
///       rounds: 8,
///       mem_cost: 14,
///     }
///
/// For other algorithms, the same `key: value` lines with the names of `firebase auth:import`'s options:
/// `hash_key` (base64), `salt_separator` (base64), `rounds`, `mem_cost` (for `STANDARD_SCRYPT` its CPU/memory cost),
/// `parallelization`, `block_size`, `dk_len`, `hash_input_order` (`SALT_FIRST` or `PASSWORD_FIRST`).
package struct FirebaseHashConfig: Sendable, Equatable {
    /// The configuration as `accounts:batchCreate` takes it, users aside.
    let request: UploadAccountRequest

    /// Why a configuration cannot be read, naming the line or key.
    package struct Unreadable: Error, CustomStringConvertible {
        package let description: String
    }

    package init(_ text: String) throws(Unreadable) {
        var request = UploadAccountRequest(users: nil)
        var memoryCost: Int64?
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.hasPrefix("hash_config") {
            body = String(body.dropFirst("hash_config".count)).trimmingCharacters(in: .whitespaces)
            guard body.hasPrefix("{"), body.hasSuffix("}") else { throw Unreadable(description: "hash_config { … } is not closed") }
            body = String(body.dropFirst().dropLast())
        }
        for line in body.split(whereSeparator: \.isNewline) {
            let entry = line.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ","))
            guard !entry.isEmpty else { continue }
            // The line itself is not repeated: it may hold part of a key.
            guard let colon = entry.firstIndex(of: ":") else { throw Unreadable(description: "a line is not `key: value`") }
            let key = entry[..<colon].trimmingCharacters(in: .whitespaces)
            let value = entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            func number() throws(Unreadable) -> Int64 {
                guard let number = Int64(jsonInteger: value) else { throw Unreadable(description: "\(key): \(value) is not a whole number") }
                return number
            }
            switch key {
            case "algorithm": request.hashAlgorithm = value
            case "base64_signer_key", "hash_key": request.signerKey = value
            case "base64_salt_separator", "salt_separator": request.saltSeparator = value
            case "rounds": request.rounds = try number()
            case "mem_cost": memoryCost = try number()
            case "parallelization": request.parallelization = try number()
            case "block_size": request.blockSize = try number()
            case "dk_len": request.dkLen = try number()
            case "hash_input_order":
                switch value {
                case "SALT_FIRST": request.passwordHashOrder = PasswordHashOrder.saltAndPassword.rawValue
                case "PASSWORD_FIRST": request.passwordHashOrder = PasswordHashOrder.passwordAndSalt.rawValue
                default: throw Unreadable(description: "hash_input_order: SALT_FIRST or PASSWORD_FIRST, not \(value)")
                }
            default: throw Unreadable(description: "unknown key \"\(key)\"")
            }
        }
        guard request.hashAlgorithm != nil else { throw Unreadable(description: "no algorithm") }
        // Firebase's CLI gives STANDARD_SCRYPT's CPU/memory cost as its memory cost.
        if request.hashAlgorithm == PasswordHashAlgorithm.standardScrypt.rawValue {
            request.cpuMemCost = memoryCost
        } else {
            request.memoryCost = memoryCost
        }
        self.request = request
    }
}
