import Foundation
import Latchkey

extension TestWorkspace {
    /// The problems `configuration(_:environment:)` reports for these settings, or none when they load.
    func problems(_ overrides: [String: Any], environment: [String: String] = [:]) async throws -> [String] {
        do {
            _ = try await configuration(overrides, environment: environment)
            return []
        } catch let problems as ConfigProblems {
            return problems.messages
        }
    }
}
