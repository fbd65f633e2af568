import Latchkey

/// One RSA signing key for the whole test run. A 2048-bit RSA key takes tens of milliseconds of CPU to find: one per
/// test app, with the suites starting together, held both cores for half a minute and made time-bound tests overrun.
/// Tests about making keys make their own.
enum TestSigningKey {
    private static let shared = Task { try await SigningKey.generate(.rs256) }

    static func rs256() async throws -> SigningKey {
        try await shared.value
    }
}
