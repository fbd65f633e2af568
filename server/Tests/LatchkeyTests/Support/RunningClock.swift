import Foundation
import Latchkey
import LatchkeyDomain
import Synchronization

/// A clock that runs with the real time and jumps ahead when a test says so: for tests that meet a real outside
/// clock, such as the OpenID Connect provider's, which signs its tokens with the time it reads. A frozen clock
/// fell behind it on a busy machine: once a test had run longer than the provider's allowed skew, every token it
/// got was "issued in the future".
final class RunningClock: WallClock {
    private let offset = Mutex<TimeInterval>(0)

    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
