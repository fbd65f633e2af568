import Foundation

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
