import Foundation
import LatchkeyDomain
import Logging

/// What `serve` would refuse in a configuration whose file has no problems, for `latchkey check-config`: the server
/// secret production needs (`latchkey init` makes it), the templates, and, with `connect`, the store and its signing
/// key. Each refusal is said as `serve` says it. Nothing is created; `connect` opens the store as `serve` does, which
/// applies its pending migrations. The warnings are what `serve` would start with but warn of: a newest signing key
/// of another algorithm than `tokens.algorithm`.
package func serveRefusals(_ configuration: AppConfiguration, connect: Bool, logger: Logger) async -> (refusals: [String], warnings: [String]) {
    let isProduction = configuration.mode == .production
    var refusals: [String] = []
    if isProduction {
        do { _ = try ServerSecret.load(configuration.security, creatingIfMissing: false) } catch { refusals.append("\(error)") }
    }
    do {
        let templates = try await TemplateLibrary(directory: configuration.templatesDirectory)
        _ = try EmailRenderer(templates: templates, sender: configuration.sender, appName: configuration.appName)
        _ = try PageRenderer(templates: templates, development: !isProduction)
        _ = try TextRenderer(templates: templates, appName: configuration.appName, webOTPHost: configuration.sms.webOTPHost)
    } catch {
        refusals.append("templatesDirectory \"\(configuration.templatesDirectory)\"\(relativePathNote(configuration.templatesDirectory)): \(error)")
    }
    // A development server creates a missing SQLite store and its key on its first start.
    let storeIsMade = isProduction || configuration.storage.kind == .postgres || FileManager.default.fileExists(atPath: configuration.storage.sqlitePath)
    guard connect, storeIsMade else { return (refusals, []) }
    var warnings: [String] = []
    do {
        let opened = try await makeStore(configuration, creatingIfMissing: false, logger: logger)
        let keys = SigningKeySchedule(try await opened.store.read { try await $0.signingKeys() })
        if isProduction, keys.keys.isEmpty {
            refusals.append("no signing key in \(opened.summary): run `latchkey init` once with the same --config")
        }
        if let newest = keys.newestKey(unlike: configuration.tokens.algorithm) {
            warnings.append(newest.algorithmNote(configured: configuration.tokens.algorithm))
        }
    } catch {
        refusals.append("\(error)")
    }
    return (refusals, warnings)
}
