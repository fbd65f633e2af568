import Foundation

/// What a finished program printed.
struct ProgramOutput {
    let status: Int32
    let output: String
    let error: String
}

extension ChildProcess {
    /// Runs `arguments` to its end, its output kept in files in `directory`.
    static func run(_ arguments: [String], in directory: URL) async throws -> ProgramOutput {
        let name = UUID().uuidString
        let output = directory.appendingPathComponent("\(name).out")
        let error = directory.appendingPathComponent("\(name).err")
        let status = try await ChildProcess(arguments, outputPath: output.path, errorPath: error.path).exitStatus()
        return ProgramOutput(
            status: status, output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            error: (try? String(contentsOf: error, encoding: .utf8)) ?? "")
    }
}
