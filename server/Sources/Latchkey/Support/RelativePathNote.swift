import Foundation

/// For a message about a configured path that was not found: where a relative one was looked for, since Latchkey
/// resolves relative paths from the working directory, not from the configuration file's; empty for an absolute path.
package func relativePathNote(_ path: String) -> String {
    path.hasPrefix("/") ? "" : ", relative to the working directory \(FileManager.default.currentDirectoryPath)"
}
