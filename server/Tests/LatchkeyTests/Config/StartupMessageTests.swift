import Foundation
import Latchkey
import Logging
import Testing

/// What an operator reads in the first hour: each refusal names the key (or the variable) to change, and why.
@Suite struct StartupMessageTests {
    @Test func aBadEnvironmentOverrideIsNamedByItsVariable() async throws {
        try await withWorkspace { workspace in
            let problems = try await workspace.problems(
                ["server": ["port": 8080]], environment: ["LATCHKEY_SERVER_PORT": "eighty", "LATCHKEY_PUBLIC_URL": "ftp://nowhere"])
            #expect(problems.contains("server.port (set by the environment variable LATCHKEY_SERVER_PORT, which overrides the file): expected an integer"))
            #expect(problems.contains { $0.hasPrefix("publicURL (set by the environment variable LATCHKEY_PUBLIC_URL, which overrides the file): ") })
            // A problem of the file itself is still the file's.
            #expect(try await workspace.problems(["server": ["port": "eighty"]]) == ["server.port: expected an integer"])
        }
    }

    @Test func aMailDirectoryThatCannotBeMadeIsNamedByItsKeyWithTheReason() async throws {
        try await withWorkspace { workspace in
            let file = workspace.directory.appendingPathComponent("a-file")
            try Data("not a directory".utf8).write(to: file)
            let configuration = try await workspace.configuration([
                "mode": "development", "mail.file.directory": file.appendingPathComponent("outbox").path,
            ])
            await #expect {
                _ = try await buildApplication(configuration, templates: try await TestTemplates.library())
            } throws: { error in
                "\(error)" == "mail.file.directory: cannot create \(file.path)/outbox: \(file.path) is a file, not a directory"
            }
        }
    }
}
