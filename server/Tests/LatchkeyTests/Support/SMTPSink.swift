import Foundation
import Latchkey

/// A real SMTP server for mail tests: `Tests/support/smtp_sink.py` (aiosmtpd) as a child process on 127.0.0.1.
///
/// It needs `python3` with `aiosmtpd` (`scripts/test` points `LATCHKEY_PYTHON` at the venv that has it) and, for TLS, `openssl`.
struct SMTPSink {
    /// How the sink behaves; each switch maps to one command-line flag of `smtp_sink.py`.
    struct Options {
        var certificate: TestCertificate?
        var implicitTLS = false
        var requireSTARTTLS = false
        var credentials: (user: String, password: String)?
        var failFirst = 0
        var rejectedRecipient: String?
        var idleTimeoutSeconds: Double?
        var isSilent = false

        var arguments: [String] {
            var arguments: [String] = []
            if let certificate { arguments += ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath] }
            if implicitTLS { arguments.append("--implicit-tls") }
            if requireSTARTTLS { arguments.append("--require-starttls") }
            if let credentials { arguments += ["--auth-user", credentials.user, "--auth-password", credentials.password] }
            if failFirst > 0 { arguments += ["--fail-first", "\(failFirst)"] }
            if let rejectedRecipient { arguments += ["--reject", rejectedRecipient] }
            if let idleTimeoutSeconds { arguments += ["--idle-timeout", "\(idleTimeoutSeconds)"] }
            if isSilent { arguments.append("--silent") }
            return arguments
        }
    }

    /// One message as the sink stored it.
    struct ReceivedMessage {
        let content: String
        let mailFrom: String
        let recipients: [String]
        let usedTLS: Bool
        let authenticatedUser: String?
    }

    static let script = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support/smtp_sink.py")

    let port: Int
    let directory: URL

    /// Settings pointing at this sink; tests change what they need.
    func settings(tls: SMTPSettings.TLSMode = .none, workers: Int = 1, timeoutSeconds: Int = 10) -> SMTPSettings {
        let scheme = tls == .implicit ? "smtps" : "smtp"
        return SMTPSettings(
            url: "\(scheme)://127.0.0.1:\(port)", tls: tls, timeoutSeconds: timeoutSeconds, heloName: "latchkey.test",
            envelopeFrom: "no-reply@example.com", workers: workers
        )
    }

    /// How many TCP connections the sink has accepted so far.
    func connectionCount() throws -> Int {
        try counter("connections")
    }

    /// How many of those connections have ended, closed by either side.
    func disconnectionCount() throws -> Int {
        try counter("disconnections")
    }

    private func counter(_ name: String) throws -> Int {
        Int(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? -1
    }

    /// Every accepted message, in arrival order.
    func messages() throws -> [ReceivedMessage] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { name in
            let base = directory.appendingPathComponent(String(name.dropLast(4)))
            let content = try String(contentsOf: base.appendingPathExtension("eml"), encoding: .utf8)
            let envelope = try JSONSerialization.jsonObject(with: Data(contentsOf: base.appendingPathExtension("json"))) as? [String: Any] ?? [:]
            return ReceivedMessage(
                content: content, mailFrom: envelope["mail_from"] as? String ?? "", recipients: envelope["rcpt_tos"] as? [String] ?? [],
                usedTLS: envelope["tls"] as? Bool ?? false, authenticatedUser: envelope["auth"] as? String
            )
        }
    }
}

/// Why the sink could not be started.
struct SMTPSinkError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a fresh sink and stops it afterwards, even when `body` throws.
func withSMTPSink<T>(_ options: SMTPSink.Options = .init(), _ body: (SMTPSink) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let log = directory.appendingPathComponent("sink.log")
        // The sink exits when its standard input closes, which happens at the latest when the test process dies.
        let process = try ChildProcess(
            [ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3", SMTPSink.script.path, "--dir", directory.path, "--lifetime", "600",
                "--exit-on-stdin-eof"] + options.arguments, withInput: true, errorPath: log.path)
        func stop() async {
            process.closeInput()
            process.terminate()
            _ = try? await process.exitStatus()
        }
        do {
            let port = try await waitForPort(in: directory, process: process, log: log)
            let result = try await body(SMTPSink(port: port, directory: directory))
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}

/// The sink writes its port to a file once it listens; polling for it keeps the test off blocking pipe reads.
private func waitForPort(in directory: URL, process: ChildProcess, log: URL) async throws -> Int {
    let file = directory.appendingPathComponent("port")
    for _ in 0..<1_200 {
        if let text = try? String(contentsOf: file, encoding: .utf8), let port = Int(text) { return port }
        guard process.isRunning else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw SMTPSinkError(description: "smtp_sink.py exited (is aiosmtpd installed? run scripts/bootstrap --test):\n\(output)")
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw SMTPSinkError(description: "smtp_sink.py did not start listening within 60 seconds")
}

/// A self-signed certificate for 127.0.0.1 and localhost, made with `openssl` for one test.
struct TestCertificate {
    let certificatePath: String
    let keyPath: String

    static func make(in directory: URL) async throws -> TestCertificate {
        let certificate = TestCertificate(
            certificatePath: directory.appendingPathComponent("cert.pem").path, keyPath: directory.appendingPathComponent("key.pem").path
        )
        let status = try await runProcess(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", certificate.keyPath, "-out", certificate.certificatePath,
            ])
        guard status == 0 else { throw SMTPSinkError(description: "openssl req exited with \(status)") }
        return certificate
    }
}

/// Runs a program found on `PATH` to completion without blocking a thread, and returns its exit status.
private func runProcess(_ program: String, _ arguments: [String]) async throws -> Int32 {
    try await ChildProcess([program] + arguments).exitStatus()
}

/// Runs `body` with a fresh directory and removes it afterwards, even when `body` throws.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-mail-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Runs `body` with a transport for `settings` and shuts it down afterwards, even when `body` throws.
func withTransport<T>(_ settings: SMTPSettings, _ body: (CurlSMTPTransport) async throws -> T) async throws -> T {
    let transport = try CurlSMTPTransport(settings: settings)
    do {
        let result = try await body(transport)
        await transport.shutdown()
        return result
    } catch {
        await transport.shutdown()
        throw error
    }
}
