import Testing
import HummingbirdTesting
@testable import Latchkey
