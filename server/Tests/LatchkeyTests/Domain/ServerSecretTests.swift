import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct ServerSecretTests {
    let secret = ServerSecret(material: Data(repeating: 7, count: 32))

    @Test func tokensCarry256BitsInURLSafeText() {
        let tokens = (0..<100).map { _ in ServerSecret.makeToken() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }

    @Test(arguments: [
        ([0xFB, 0xFF], "-_8"), ([0xFB, 0xFF, 0xBF], "-_-_"), ([0x66], "Zg"), ([0x66, 0x6F], "Zm8"), ([0x66, 0x6F, 0x6F], "Zm9v"), ([], ""),
    ])
    func base64URLIsRFC4648WithoutPadding(_ bytes: [UInt8], _ expected: String) {
        #expect(Data(bytes).base64URLEncoded() == expected)
    }

    @Test func tokensOfOddSizesHaveTheirFullLength() {
        #expect(ServerSecret.makeToken(bytes: 18).count == 24)
        #expect(ServerSecret.makeToken(bytes: 1).count == 2)
        #expect(ServerSecret.makeToken(bytes: 9).count == 12)
    }

    @Test func hashesAreKeyedAndSeparatedByPurpose() {
        let other = ServerSecret(material: Data(repeating: 8, count: 32))
        #expect(secret.hash("code", for: .linkCode) == secret.hash("code", for: .linkCode))
        #expect(secret.hash("code", for: .linkCode) != secret.hash("code", for: .refreshToken))
        #expect(secret.hash("code", for: .linkCode) != other.hash("code", for: .linkCode))
        #expect(secret.hash("code", for: .linkCode).count == 32)
    }

    /// Hashes stored by any earlier build must still match: HMAC-SHA256 under the HKDF-SHA256 key of the purpose (no
    /// salt), computed independently with Python's `hmac`. Hashing other tokens in between changes nothing, though
    /// each hash starts from the same keyed state.
    @Test func hashesAreHMACUnderTheDerivedKeyWhateverCameBefore() {
        let expected = "1d5f10cb8816f9e55964033043950df98b51526221d75fd89244a14208f5ab16"
        let first = secret.hash("code", for: .refreshToken)
        _ = (0..<3).map { secret.hash("other \($0)", for: .refreshToken) }
        #expect(first.map { String(format: "%02x", $0) }.joined() == expected)
        #expect(secret.hash("code", for: .refreshToken) == first)
    }

    @Test func sealedMailOpensOnlyUnderTheSameSecret() throws {
        let sealed = try secret.seal(Array("a sign-in link".utf8))
        #expect(!String(decoding: sealed, as: UTF8.self).contains("sign-in"))
        #expect(try secret.open(sealed) == Data("a sign-in link".utf8))
        #expect(throws: (any Error).self) { try ServerSecret(material: Data(repeating: 8, count: 32)).open(sealed) }
    }

    @Test func aConfiguredSecretWinsOverTheFile() throws {
        let material = Data((0..<32).map { UInt8($0) })
        let configured = try ServerSecret.load(
            SecurityConfiguration(serverSecret: material.base64EncodedString(), serverSecretFile: "/nonexistent/secret"), creatingIfMissing: false)
        #expect(configured.hash("x", for: .linkCode) == ServerSecret(material: material).hash("x", for: .linkCode))
    }

    @Test func theSecretFileIsCreatedOnlyWhenAskedThenReusedPrivately() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = SecurityConfiguration(serverSecret: nil, serverSecretFile: directory.appendingPathComponent("secret").path)
        let error = #expect(throws: StartupError.self) { try ServerSecret.load(configuration, creatingIfMissing: false) }
        #expect(error?.description.contains("latchkey init") == true)
        let first = try ServerSecret.load(configuration, creatingIfMissing: true)
        let second = try ServerSecret.load(configuration, creatingIfMissing: false)
        #expect(first.hash("x", for: .linkCode) == second.hash("x", for: .linkCode))
        let attributes = try FileManager.default.attributesOfItem(atPath: configuration.serverSecretFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
