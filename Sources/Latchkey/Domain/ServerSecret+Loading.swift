import Foundation

extension ServerSecret {
    /// The configured secret, or the one kept in `security.serverSecretFile`, created there on first start.
    package static func load(_ configuration: SecurityConfiguration) throws -> ServerSecret {
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
        let material = randomBytes(32)
        try FileManager.default.createPrivateDirectory(at: url.deletingLastPathComponent())
        try writePrivateFile(Data(material.base64EncodedString().utf8), to: url)
        return ServerSecret(material: material)
    }
}

extension FileManager {
    /// Creates `url` and its parents, readable by the owner only.
    func createPrivateDirectory(at url: URL) throws {
        try createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}

/// Writes a secret file readable by the owner only, atomically so a crash never leaves half a key.
func writePrivateFile(_ data: Data, to url: URL) throws {
    let temporary = url.appendingPathExtension("tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]),
        rename(temporary.path, url.path) == 0
    else { throw StartupError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
}

/// A problem that stops the server from starting, said in words an operator can act on.
package struct StartupError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
