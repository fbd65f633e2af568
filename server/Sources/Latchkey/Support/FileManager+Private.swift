import Foundation

extension FileManager {
    /// Creates `url` and its parents, the folder itself readable by the owner only whatever the umask. An existing
    /// folder is left as the operator set it.
    package func createPrivateDirectory(at url: URL) throws {
        guard !fileExists(atPath: url.path) else { return }
        try createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }
}

/// Creates an empty file readable and writable by the owner only, whatever the umask, unless `url` exists.
///
/// SQLite opens an empty file as a new database and creates its log and shared-memory files with the database
/// file's mode, so creating it first keeps all three private.
package func createPrivateFileIfMissing(at url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
        if errno == EEXIST { return }
        throw StartupError("cannot create \(url.path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, 0o600) == 0 else { throw StartupError("cannot restrict \(url.path): \(String(cString: strerror(errno)))") }
}

/// Writes a secret file readable by the owner only, atomically so a crash never leaves half a key.
package func writePrivateFile(_ data: Data, to url: URL) throws {
    let temporary = url.appendingPathExtension("tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]),
        rename(temporary.path, url.path) == 0
    else { throw StartupError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
}

/// Writes `data` to a new file only its owner can read, whatever the umask; an existing file is refused, never
/// overwritten, and a failed write leaves no file behind.
package func writeNewPrivateFile(_ data: Data, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
        throw StartupError(errno == EEXIST ? "\(url.path) exists: choose a new file" : "cannot create \(url.path): \(String(cString: strerror(errno)))")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
        guard fchmod(descriptor, 0o600) == 0 else { throw StartupError("cannot restrict \(url.path): \(String(cString: strerror(errno)))") }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
    } catch {
        try? handle.close()
        unlink(url.path)
        throw error as? StartupError ?? StartupError("cannot write \(url.path): \(error)")
    }
}
