import Foundation
import LatchkeyDomain

extension ServerSecret {
    /// The configured secret, or the one kept in `security.serverSecretFile`, created there when missing only when
    /// `creatingIfMissing` (development mode, `latchkey init`).
    package static func load(_ configuration: SecurityConfiguration, creatingIfMissing: Bool) throws -> ServerSecret {
        if let configured = configuration.serverSecret {
            let decoded = Data(base64Encoded: configured).flatMap { $0.count >= 32 ? $0 : nil }
            return ServerSecret(material: decoded ?? Data(configured.utf8))
        }
        let url = URL(fileURLWithPath: configuration.serverSecretFile)
        if let stored = try? String(contentsOf: url, encoding: .utf8), let material = Data(base64Encoded: stored.trimmingSpaces()) {
            guard material.count >= 32 else { throw StartupError("\(url.path) holds fewer than 32 bytes of secret") }
            return ServerSecret(material: material)
        }
        if FileManager.default.fileExists(atPath: url.path) {
            throw StartupError("\(url.path) is not a base64 secret; remove it to create a new one (every pending link and session then ends)")
        }
        guard creatingIfMissing else {
            throw StartupError(
                "no server secret at \(url.path) (security.serverSecretFile \"\(configuration.serverSecretFile)\""
                    + "\(relativePathNote(configuration.serverSecretFile))): run `latchkey init` once with the same --config, "
                    + "or give it in LATCHKEY_SECURITY_SERVER_SECRET")
        }
        let material = randomBytes(32)
        try FileManager.default.createPrivateDirectory(at: url.deletingLastPathComponent())
        try writePrivateFile(Data(material.base64EncodedString().utf8), to: url)
        return ServerSecret(material: material)
    }
}
