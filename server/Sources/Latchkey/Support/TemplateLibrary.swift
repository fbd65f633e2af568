import Foundation
import Mustache

/// Every template below the templates directory, compiled once at start-up and shared by the email and page renderers.
package struct TemplateLibrary: Sendable {
    let library: MustacheLibrary
    /// The resolved directory the template names are relative to, ending in `/`.
    let root: String

    /// Compiles every template below `directory`. A template that does not compile stops start-up, never a request.
    package init(directory: String) async throws {
        // swift-mustache does not descend into a symlinked top folder, common with mounted config.
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
        do {
            library = try await MustacheLibrary(directory: root)
        } catch {
            throw StartupError("templates in \(root) do not compile: \(error)")
        }
        self.root = root
    }
}
