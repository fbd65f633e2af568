import LatchkeyDomain

/// The server secret that keys every stored hash and seals queued mail.
///
/// - `security.serverSecret` (string, secret, optional): at least 32 bytes, base64 or plain text; give it
///   through `LATCHKEY_SECURITY_SERVER_SECRET`, never in the JSON file.
/// - `security.serverSecretFile` (string, default `"data/server-secret"`): used when no secret is given;
///   created with a fresh random secret by `latchkey init` (or by `serve` in development mode), read after.
/// - `security.passwordHashCost` (integer, default `11`, 4 to 16): the bcrypt cost of password hashes.
/// - `security.passwordHashConcurrency` (integer, default: the number of CPU cores, 1 to 64): password hashes and
///   checks that run at once, on NIO's blocking pool (one thread per core).
/// - `security.passwordHashQueueLength` (integer, default `64`, 0 to 10000): how many more may wait for a thread;
///   past it a request that needs one is refused with a 503 (`UNAVAILABLE`) before anything changes.
/// - `security.passwordHashWaitMilliseconds` (integer, default `3000`, 1 to 60000): how long one may wait for a
///   thread before it is refused the same way.
/// - `security.passwordChecksPerAddress` (integer, default `2`, 1 to 64): checks of one address's password (sign-in
///   attempts) admitted at once, running or waiting; more are refused the same way, so that one account's attempts
///   cannot hold the threads others need.
/// - `emailEnumerationProtection` (boolean, default `true`): password sign-in failures answer
///   `INVALID_LOGIN_CREDENTIALS` alike, and `createAuthUri` reveals nothing about the address.
/// - `security.recentLoginSeconds` (integer, default `300`): how recent a sign-in must be (`auth_time`) to change
///   the password or the address, delete the account, or add a password, provider or address to an account that is not
///   anonymous; older sessions get `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`.
package struct SecurityConfiguration: Sendable {
    package var serverSecret: String?
    package var serverSecretFile: String
    package var passwordHashCost = 11
    package var emailEnumerationProtection = true
    package var recentLoginSeconds = 300
    package var passwordHashing = PasswordHashingLimits()

    package init(serverSecret: String?, serverSecretFile: String) {
        self.serverSecret = serverSecret
        self.serverSecretFile = serverSecretFile
    }

    init(_ read: inout ConfigSectionReader) {
        serverSecret = read.string("security.serverSecret", isSecret: true)
        serverSecretFile = read.string("security.serverSecretFile") ?? "data/server-secret"
        passwordHashCost = read.int("security.passwordHashCost", default: passwordHashCost, in: 4...16)
        passwordHashing.concurrency = read.int("security.passwordHashConcurrency", default: passwordHashing.concurrency, in: 1...64)
        passwordHashing.queueLength = read.int("security.passwordHashQueueLength", default: passwordHashing.queueLength, in: 0...10_000)
        let wait = read.int("security.passwordHashWaitMilliseconds", default: Int(passwordHashing.maximumWait / .milliseconds(1)), in: 1...60_000)
        passwordHashing.maximumWait = .milliseconds(wait)
        passwordHashing.checksPerAddress = read.int("security.passwordChecksPerAddress", default: passwordHashing.checksPerAddress, in: 1...64)
        emailEnumerationProtection = read.bool("emailEnumerationProtection") ?? true
        recentLoginSeconds = read.int("security.recentLoginSeconds", default: recentLoginSeconds, in: 1...86_400)
        if let secret = serverSecret, secret.utf8.count < 32 {
            read.problems.add("security.serverSecret", "must be at least 32 bytes long")
        }
    }
}
