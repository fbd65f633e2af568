import Latchkey

/// The repository's templates, compiled once for the whole test run. Compiling them takes a tenth of a second of CPU
/// in a debug build, on the cooperative pool: once per test app, with the suites starting together, it held both of a
/// CI machine's cores for half a minute, and the PostgreSQL tests' requests timed out waiting for a thread.
enum TestTemplates {
    static let directory = TestWorkspace.repositoryRoot.appendingPathComponent("templates").path
    private static let shared = Task { try await TemplateLibrary(directory: directory) }

    static func library() async throws -> TemplateLibrary {
        try await shared.value
    }

    /// The shared library when `directory` is the repository's templates, else `nil` (the app compiles its own).
    static func library(for directory: String) async throws -> TemplateLibrary? {
        directory == Self.directory ? try await library() : nil
    }
}
