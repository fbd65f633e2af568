import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// `latchkey copy` as an operator runs it: the built executable, two configuration files.
@Suite(.outsideProcesses) struct CopyCommandTests {
    /// The `latchkey` executable that `swift build` puts beside the test binary.
    static let latchkey = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("latchkey").path

    @Test func printsHowManyRowsEachTableHadThenRefusesTheTargetItFilled() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.latchkey), "build the executable first: swift build")
        try await withWorkspace { workspace in
            let from = try workspace.writeConfiguration("from.json")
            let to = try workspace.writeConfiguration("to.json", ["storage.sqlite.path": workspace.copyPath])
            let initialized = try await ChildProcess.run([Self.latchkey, "init", "--config", from], in: workspace.directory)
            try #require(initialized.status == 0, "\(initialized.error)")

            let copy = [Self.latchkey, "copy", "--from", from, "--to", to]
            let copied = try await ChildProcess.run(copy, in: workspace.directory)
            #expect(copied.status == 0, "\(copied.error)")
            let lines = copied.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("copied \(workspace.databasePath) (") == true, "\(copied.output)")
            let counted = CopiedTable.all.map { $0.name == "signing_keys" ? "signing_keys\t1" : "\($0.name)\t0" }
            #expect(Array(lines.dropFirst()) == ["table\trows"] + counted)

            let again = try await ChildProcess.run(copy, in: workspace.directory)
            #expect(again.status == 1)
            #expect(again.output.isEmpty)
            #expect(again.error.contains("latchkey copy: the target store is not empty (signing_keys: 1)"), "\(again.error)")
        }
    }
}

extension TestWorkspace {
    /// Writes the test settings with `overrides` to `name` in the workspace, as an operator's file, and returns its path.
    func writeConfiguration(_ name: String, _ overrides: [String: Any] = [:]) throws -> String {
        let file = directory.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: settings(overrides)).write(to: file)
        return file.path
    }
}
