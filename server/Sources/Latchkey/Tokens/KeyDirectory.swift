import Foundation

/// The PEM files `tokens.keyDirectory` held when signing keys were kept there (up to 0.8): read only to import
/// them into a store that has no key yet.
enum KeyDirectory {
    /// Every `*.pem` file in `directory` with the time it was written; none when the directory is missing.
    static func keys(in directory: String) throws -> [(key: SigningKey, writtenAt: Date)] {
        let folder = URL(fileURLWithPath: directory)
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? [])
            .filter { $0.pathExtension == "pem" }
        return try files.map { file in
            let pem = try String(contentsOf: file, encoding: .utf8)
            guard let key = SigningKey(pem: pem) else {
                throw StartupError("\(file.path) is neither an RSA nor a P-256 private key in PEM form")
            }
            // Linux file systems rarely report a creation date; a key file was never modified after it was written.
            return (key, try file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantPast)
        }
    }
}
