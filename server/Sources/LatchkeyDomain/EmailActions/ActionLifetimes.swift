import Foundation

/// How long the code of each email action lives (`emailLink.codeLifetimeSeconds`, `emailActions`).
package struct ActionLifetimes: Sendable {
    private let seconds: [EmailAction: Int]

    /// `seconds` for each action; an action left out lives an hour.
    package init(_ seconds: [EmailAction: Int]) {
        self.seconds = seconds
    }

    package subscript(action: EmailAction) -> TimeInterval {
        TimeInterval(seconds[action] ?? 3_600)
    }
}
