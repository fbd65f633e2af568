import Foundation
import Mustache

extension MustacheLibrary {
    /// Compiles every template below `directory`, returning the library and the root its names are relative to.
    /// A template that does not compile stops start-up, never a request.
    static func load(directory: String) async throws -> (library: MustacheLibrary, root: String) {
        // swift-mustache does not descend into a symlinked top folder, common with mounted config.
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
        do {
            return (try await MustacheLibrary(directory: root), root)
        } catch {
            throw StartupError("templates in \(root) do not compile: \(error)")
        }
    }
}
