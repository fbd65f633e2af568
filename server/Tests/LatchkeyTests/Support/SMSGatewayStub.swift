import Foundation
import Latchkey

/// A local SMS gateway for the text gateways' tests: `Tests/support/sms_gateway.py` as a child process on 127.0.0.1,
/// taking the webhook's and Twilio's shapes, checking the signature and the basic auth, and recording every text.
struct SMSGatewayStub {
    /// How the stub answers; each maps to a flag of `sms_gateway.py`.
    struct Options {
        /// Every text gets this status (500 for an outage); 0 lets the stub judge each text.
        var status = 0
        var delaySeconds: Double = 0
        var answersGarbage = false
        var invalidNumbers: [String] = []

        var arguments: [String] {
            var arguments = ["--status", "\(status)", "--delay", "\(delaySeconds)"]
            if answersGarbage { arguments.append("--garbage") }
            for number in invalidNumbers { arguments += ["--invalid-number", number] }
            return arguments
        }
    }

    /// One text as the stub recorded it.
    struct ReceivedText: Decodable, Equatable {
        let shape: String
        let id: String?
        let to: String?
        let body: String?
        let from: String?
        let status: Int
        /// The webhook's signature, or Twilio's basic auth, checked out.
        let signature_ok: Bool
    }

    static let script = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support/sms_gateway.py")
    /// The stub's defaults (`--webhook-secret`, `--twilio-sid`, `--twilio-token`).
    static let webhookSecret = "whsec_" + Data("latchkey-test-webhook-secret".utf8).base64EncodedString()
    static let twilioAccountSID = "AC00000000000000000000000000000000"
    static let twilioAuthToken = "twilio-test-token"

    let port: Int
    let directory: URL

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    var webhookURL: URL { baseURL.appendingPathComponent("webhook") }

    /// Every text received, in arrival order.
    func texts() throws -> [ReceivedText] {
        let file = directory.appendingPathComponent("texts.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(ReceivedText.self, from: Data($0.utf8))
        }
    }
}

/// Runs `body` with a fresh stub and stops it afterwards, even when `body` throws.
func withSMSGatewayStub<T>(_ options: SMSGatewayStub.Options = .init(), _ body: (SMSGatewayStub) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let log = directory.appendingPathComponent("stub.log")
        let process = try ChildProcess(
            [
                ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3", SMSGatewayStub.script.path, "--dir", directory.path,
                "--lifetime", "600",
                "--exit-on-stdin-eof",
            ] + options.arguments, withInput: true, errorPath: log.path)
        func stop() async {
            process.closeInput()
            process.terminate()
            _ = try? await process.exitStatus()
        }
        do {
            let portFile = directory.appendingPathComponent("port")
            var port: Int?
            for _ in 0..<1_200 where port == nil {
                if let text = try? String(contentsOf: portFile, encoding: .utf8) {
                    port = Int(text)
                } else {
                    guard process.isRunning else {
                        throw SMTPSinkError(description: "sms_gateway.py exited: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            guard let port else { throw SMTPSinkError(description: "sms_gateway.py did not start listening within 60 seconds") }
            let result = try await body(SMSGatewayStub(port: port, directory: directory))
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}
