import JWTKit

/// For checking a signature only: whoever verifies with a key set checks the claims, each with its own reason.
struct SignatureOnly: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) throws {}
}
