import Foundation

/// Where the signed-in user is kept between launches: the Keychain on Apple platforms, a file readable by its owner
/// only on Linux, or memory. What is stored holds the refresh token: keep it out of logs and backups.
public protocol UserPersistence: Sendable {
    /// The stored user, or `nil` when nobody is signed in.
    func load() throws -> Data?
    func save(_ data: Data) throws
    func remove() throws
}

/// Keeps the user for the life of the process only.
public final class MemoryUserPersistence: UserPersistence {
    private let stored = Locked<Data?>(nil)

    public init() {}

    public func load() throws -> Data? { stored.current }
    public func save(_ data: Data) throws { stored.withLock { $0 = data } }
    public func remove() throws { stored.withLock { $0 = nil } }
}

/// Keeps the user in a file created with mode 0600, written atomically, and read only while it is the owner's alone.
public struct FileUserPersistence: UserPersistence {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The file for the session with the service at `serviceURL`, one per scheme, host and port:
    /// `<prefix><scheme>-<host>-<port>.json` in `$XDG_CONFIG_HOME/latchkey/` (by default `~/.config/latchkey/`).
    public init(service serviceURL: URL, prefix: String = "") {
        let name = ServiceIdentity.storageName(for: serviceURL)
        let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            .map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        url = configuration.appendingPathComponent("latchkey/\(prefix)\(name.isEmpty ? "service" : name).json")
    }

    /// Refuses (with `keychainError`) a file that another user owns, or that its group or others may read or write:
    /// someone else could have planted it, or read the refresh token in it. It is opened never through a link, and
    /// checked on the descriptor it is read from.
    public func load() throws -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW)
        if descriptor < 0, errno == ENOENT { return nil }
        guard descriptor >= 0 else { throw Self.failure("cannot open \(url.path)") }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("cannot read \(url.path)") }
        guard status.st_uid == geteuid() else {
            throw AuthError(.keychainError, message: "\(url.path) belongs to another user (uid \(status.st_uid)); not read")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw AuthError(.keychainError, message: "\(url.path) is open to other users (mode \(mode)); not read: chmod 600 it")
        }
        return try file.readToEnd() ?? Data()
    }

    public func save(_ data: Data) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A new file beside it, created with owner-only rights (never through a link), written and synced, then renamed
        // over it: never readable by others, never half written.
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Self.failure("cannot create \(temporary.path)") }
        let written = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                guard count > 0 else { return false }
                offset += count
            }
            return fsync(descriptor) == 0
        }
        let failure = written ? nil : Self.failure("cannot write \(temporary.path)")
        close(descriptor)
        guard failure == nil, rename(temporary.path, url.path) == 0 else {
            let error = failure ?? Self.failure("cannot replace \(url.path)")
            unlink(temporary.path)
            throw error
        }
    }

    private static func failure(_ what: String) -> AuthError {
        AuthError(.keychainError, message: "\(what): \(String(cString: strerror(errno)))")
    }

    public func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}

#if canImport(Security)
import Security

/// Keeps the user in the Keychain as a generic password, readable after the device's first unlock.
public struct KeychainUserPersistence: UserPersistence {
    public let service: String
    public let account: String

    public init(service: String = "latchkey.auth", account: String = "currentUser") {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    public func load() throws -> Data? {
        var result: AnyObject?
        var search = query
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw AuthError(.keychainError, message: "SecItemCopyMatching: \(status)") }
        return result as? Data
    }

    public func save(_ data: Data) throws {
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw AuthError(.keychainError, message: "saving the user: \(status)") }
    }

    public func remove() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw AuthError(.keychainError, message: "SecItemDelete: \(status)") }
    }
}
#endif
