import Crypto
import Foundation
import Testing

/// The local stand-ins for app verification's outside parties, started once for the test run from
/// `Tests/support/`: APNs (`apns_stub.py`, HTTP/2 over TLS through hypercorn, checking the provider token against the
/// public half of `key`) and a captcha provider's siteverify (`siteverify_stub.py`). Each records what it received in
/// its directory, so tests tell their requests apart by the device token or captcha token they made up.
struct AppVerificationStubs: Sendable {
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let bundleID = "com.example.app"
    static let captchaSecret = "siteverify-secret"

    let directory: URL
    let apnsPort: Int
    let siteverifyPort: Int
    /// Kept so that the stubs run while the tests do; they end with the test process, which holds their standard input.
    let processes: [ChildProcess]

    var keyFile: URL { directory.appendingPathComponent("apns-key.p8") }
    var apnsCertificate: URL { directory.appendingPathComponent("cert.pem") }

    /// The settings that point app verification at the stubs: one listed iOS app, the APNs key, and the captcha
    /// provider; `timeoutSeconds` short, so the slow cases end quickly.
    func settings(apns: Bool = true, captcha: Bool = true) -> [String: Any] {
        var settings: [String: Any] = ["apps": ["ios": [["teamId": Self.teamID, "bundleId": Self.bundleID]]]]
        if apns {
            settings["appVerification.apns"] = [
                "keyId": Self.keyID, "teamId": Self.teamID, "keyFile": keyFile.path, "caFile": apnsCertificate.path, "timeoutSeconds": 2,
                "productionURL": "https://127.0.0.1:\(apnsPort)/production", "sandboxURL": "https://127.0.0.1:\(apnsPort)/sandbox",
            ]
        }
        if captcha {
            settings["appVerification.captcha"] = [
                "provider": "turnstile", "secretFile": directory.appendingPathComponent("captcha-secret").path,
                "siteverifyURL": "http://127.0.0.1:\(siteverifyPort)/siteverify",
                "siteKey": "test-site-key", "timeoutSeconds": 2,
            ]
        }
        return settings
    }

    /// The pushes APNs accepted for `deviceToken`, each as the stub recorded it.
    func pushes(to deviceToken: String) throws -> [[String: Any]] {
        try records(in: "pushes.jsonl").filter { $0["token"] as? String == deviceToken }
    }

    /// The secret the push to `deviceToken` carried, under `com.google.firebase.auth`.
    func pushedSecret(to deviceToken: String) throws -> String? {
        let payload = try pushes(to: deviceToken).first?["payload"] as? [String: Any]
        return (payload?["com.google.firebase.auth"] as? [String: String])?["secret"]
    }

    /// The forms siteverify received for `token`.
    func siteverifyCalls(for token: String) throws -> [[String: Any]] {
        try records(in: "siteverify.jsonl").filter { $0["response"] as? String == token }
    }

    private func records(in name: String) throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    static let shared = Task { () throws -> AppVerificationStubs in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-verification-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        try key.pemRepresentation.write(to: directory.appendingPathComponent("apns-key.p8"), atomically: true, encoding: .utf8)
        try captchaSecret.write(to: directory.appendingPathComponent("captcha-secret"), atomically: true, encoding: .utf8)
        let publicKey = directory.appendingPathComponent("apns-public.pem")
        try key.publicKey.pemRepresentation.write(to: publicKey, atomically: true, encoding: .utf8)
        let python = ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3"
        let support = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support")
        let apns = try ChildProcess(
            [
                python, support.appendingPathComponent("apns_stub.py").path, "--directory", directory.path, "--key-id", keyID, "--team-id", teamID,
                "--public-key", publicKey.path, "--until-stdin-closes",
            ], withInput: true, outputPath: directory.appendingPathComponent("apns.out").path,
            errorPath: directory.appendingPathComponent("apns.err").path)
        let siteverify = try ChildProcess(
            [
                python, support.appendingPathComponent("siteverify_stub.py").path, "--secret", captchaSecret, "--record",
                directory.appendingPathComponent("siteverify.jsonl").path, "--until-stdin-closes",
            ], withInput: true, outputPath: directory.appendingPathComponent("siteverify.out").path,
            errorPath: directory.appendingPathComponent("siteverify.err").path)
        return AppVerificationStubs(
            directory: directory, apnsPort: try await port(printedIn: directory, "apns", by: apns),
            siteverifyPort: try await port(printedIn: directory, "siteverify", by: siteverify), processes: [apns, siteverify])
    }

    /// The `PORT n` line a stub prints once it listens.
    private static func port(printedIn directory: URL, _ name: String, by process: ChildProcess) async throws -> Int {
        for _ in 0..<1_200 {
            let output = (try? String(contentsOf: directory.appendingPathComponent("\(name).out"), encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }), let port = Int(line.dropFirst(5)) { return port }
            guard process.isRunning else {
                let errors = (try? String(contentsOf: directory.appendingPathComponent("\(name).err"), encoding: .utf8)) ?? ""
                throw TestServerError(description: "the \(name) stub exited (run scripts/bootstrap --test):\n\(errors)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestServerError(description: "the \(name) stub did not listen within 60 seconds")
    }
}
