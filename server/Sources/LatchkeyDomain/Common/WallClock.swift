import Foundation

/// Where the domain reads the time, so tests can expire a link without sleeping.
package protocol WallClock: Sendable {
    var now: Date { get }
}

/// The system's clock.
package struct SystemWallClock: WallClock {
    package init() {}
    package var now: Date { Date() }
}
