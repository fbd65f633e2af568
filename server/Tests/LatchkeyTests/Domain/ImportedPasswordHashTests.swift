import Crypto
import Foundation
import HummingbirdBcrypt
import Latchkey
import LatchkeyDomain
import Testing

/// Imported password hashes: Firebase's published scrypt example, many hashes made by reference implementations
/// (`Tests/support/reference_password_hashes.py`: PyPI's `firebase-scrypt` and `bcrypt`, Python's `hashlib` and
/// `hmac`; for the digest algorithms' rounds and input order the script follows this server's reading, which only
/// Firebase's own answers could confirm), and the hostile configurations refused.
@Suite(.outsideProcesses) struct ImportedPasswordHashTests {
    static func bytes(_ base64: String) throws -> Data { try #require(Data(base64Encoded: base64)) }

    /// The example of github.com/firebase/scrypt's README: a project's hash parameters, a user's salt and password.
    @Test func firebasesPublishedExample() throws {
        let imported = try ImportedPasswordHash.firebaseExample()
        #expect(imported.matches("user1password"))
        #expect(!imported.matches("user1passwore") && !imported.matches("user1password ") && !imported.matches(""))
    }

    struct ReferenceCase: Decodable {
        let algorithm: PasswordHashAlgorithm
        let parameters: [String: JSONScalar]
        let salt: String
        let hash: String
        let password: String
    }

    enum JSONScalar: Decodable {
        case number(Int), text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
        }
        var number: Int? { if case .number(let value) = self { value } else { nil } }
        var bytes: Data? { if case .text(let value) = self { Data(base64Encoded: value) } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// Every algorithm against its reference, on random passwords (non-ASCII too), salts, keys and parameters.
    @Test func matchesTheReferenceImplementations() async throws {
        let script = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support/reference_password_hashes.py")
        let python = ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3"
        let run = try await ChildProcess.run([python, script.path, "12", "2026"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n")
        var checked: Set<PasswordHashAlgorithm> = []
        for line in lines {
            let reference = try JSONDecoder().decode(ReferenceCase.self, from: Data(line.utf8))
            let p = reference.parameters
            let parameters = PasswordHashParameters(
                signerKey: p["signerKey"]?.bytes, saltSeparator: p["saltSeparator"]?.bytes, rounds: p["rounds"]?.number,
                memoryCost: p["memoryCost"]?.number, cpuMemCost: p["cpuMemCost"]?.number, blockSize: p["blockSize"]?.number,
                parallelization: p["parallelization"]?.number, derivedKeyLength: p["dkLen"]?.number,
                order: p["passwordHashOrder"]?.text.flatMap(PasswordHashOrder.init(rawValue:)))
            let imported = try ImportedPasswordHash(
                algorithm: reference.algorithm, parameters: parameters, hash: try Self.bytes(reference.hash), salt: try Self.bytes(reference.salt))
            #expect(imported.matches(reference.password), "\(reference.algorithm) \(String(line))")
            #expect(!imported.matches(reference.password + "x") && !imported.matches(String(reference.password.dropLast())))
            checked.insert(reference.algorithm)
        }
        #expect(checked == Set(PasswordHashAlgorithm.allCases) && lines.count > 100)
    }

    /// Configurations that would make a sign-in eat the server's memory or CPU, or that cannot be checked, are refused.
    @Test(arguments: [
        (PasswordHashAlgorithm.scrypt, PasswordHashParameters(signerKey: Data([1]), rounds: 8, memoryCost: 15)),
        (.scrypt, PasswordHashParameters(signerKey: Data([1]), rounds: 9, memoryCost: 14)),
        (.scrypt, PasswordHashParameters(rounds: 8, memoryCost: 14)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 20, blockSize: 8, parallelization: 1, derivedKeyLength: 32)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 16, blockSize: 8, parallelization: 16, derivedKeyLength: 32)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1000, blockSize: 8, parallelization: 1, derivedKeyLength: 32)),
        (.pbkdf2SHA256, PasswordHashParameters(rounds: 120_001)),
        (.pbkdfSHA1, PasswordHashParameters()),
        (.sha256, PasswordHashParameters(rounds: 8193)),
        (.hmacSHA256, PasswordHashParameters(signerKey: Data(count: 1025))),
        (.pbkdfSHA1, PasswordHashParameters(rounds: 100_000)),  // 2 blocks of SHA-1 for 32 bytes: 200,000
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 16, blockSize: 1, parallelization: 1, derivedKeyLength: 32)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1024, blockSize: 8, parallelization: 1, derivedKeyLength: 16)),
        (.scrypt, PasswordHashParameters(signerKey: Data(count: 16), rounds: 8, memoryCost: 14)),
        // Past four times the mixing of Firebase's own SCRYPT (64 MiB), however it is split.
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 16, blockSize: 8, parallelization: 2, derivedKeyLength: 32)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 14, blockSize: 8, parallelization: 5, derivedKeyLength: 32)),
        (.standardScrypt, PasswordHashParameters(cpuMemCost: 1 << 15, blockSize: 24, parallelization: 1, derivedKeyLength: 32)),
    ]) func hostileConfigurationsAreRefused(_ algorithm: PasswordHashAlgorithm, _ parameters: PasswordHashParameters) {
        #expect(throws: ImportedPasswordHash.Invalid.self) {
            try ImportedPasswordHash(algorithm: algorithm, parameters: parameters, hash: Data(repeating: 1, count: 32), salt: Data())
        }
    }

    /// What Firebase produces, and scrypt's and bcrypt's common settings, stay importable at the bounds: Firebase's
    /// SCRYPT at rounds 8 and memory cost 14 (its projects' parameters), STANDARD_SCRYPT mixing 64 MiB (N = 2^16,
    /// r = 8, p = 1, or N = 2^14 with p = 4), bcrypt cost 12.
    @Test func firebasesParametersAndCommonCostsStayImportable() throws {
        #expect(try ImportedPasswordHash.firebaseExample().matches("user1password"))
        for (n, r, p) in [(1 << 16, 8, 1), (1 << 14, 8, 4), (1 << 14, 8, 1)] {
            let parameters = PasswordHashParameters(cpuMemCost: n, blockSize: r, parallelization: p, derivedKeyLength: 32)
            #expect(throws: Never.self) {
                try ImportedPasswordHash(algorithm: .standardScrypt, parameters: parameters, hash: Data(repeating: 1, count: 32), salt: Data())
            }
        }
        let cost12 = Data(("$2b$12$" + String(repeating: "a", count: 53)).utf8)
        #expect(throws: Never.self) { try ImportedPasswordHash(algorithm: .bcrypt, parameters: .init(), hash: cost12, salt: Data()) }
    }

    /// A derived hash too short to resist guessing is refused: a 1-byte hash would open for one password in 256.
    @Test func shortHashesAreRefused() {
        for (algorithm, parameters) in [
            (PasswordHashAlgorithm.pbkdf2SHA256, PasswordHashParameters(rounds: 1000)),
            (.scrypt, PasswordHashParameters(signerKey: Data([1]), rounds: 8, memoryCost: 14)),
        ] {
            #expect(throws: ImportedPasswordHash.Invalid.self) {
                try ImportedPasswordHash(algorithm: algorithm, parameters: parameters, hash: Data([1]), salt: Data())
            }
        }
    }

    /// A stored record is checked again when read: one sealed with bounds this server no longer allows opens nothing.
    @Test func decodingARecordChecksItAgain() throws {
        let record = #"{"algorithm":"SCRYPT","parameters":{"signerKey":"AAAAAAAAAAAAAAAAAAAAAA==","rounds":8,"memoryCost":99},"hash":"AAAAAAAAAAAAAAAAAAAAAA==","salt":""}"#
        #expect(throws: ImportedPasswordHash.Invalid.self) { try JSONDecoder().decode(ImportedPasswordHash.self, from: Data(record.utf8)) }
    }

    /// PHP's `$2y$` is `$2b$` by another name; bcrypt reads 72 bytes up to a NUL, so longer passwords open nothing.
    @Test func bcryptHashesAreCheckedAndBounded() throws {
        let made = Bcrypt.hash("correct horse", cost: 4)
        let php = try ImportedPasswordHash(algorithm: .bcrypt, parameters: .init(), hash: Data(("$2y$" + made.dropFirst(4)).utf8), salt: Data())
        #expect(php.matches("correct horse") && !php.matches("correct horsf"))
        let long = String(repeating: "a", count: 72)
        let truncated = try ImportedPasswordHash(algorithm: .bcrypt, parameters: .init(), hash: Data(Bcrypt.hash(long, cost: 4).utf8), salt: Data())
        #expect(truncated.matches(long) && !truncated.matches(long + "b") && !truncated.matches("aaaa\0" + long))
        // Each step of the cost doubles a check: 13 is past twice this server's default cost of 11.
        for cost in ["13", "14", "20"] {
            let costly = "$2b$\(cost)$" + String(repeating: "a", count: 53)
            do {
                _ = try ImportedPasswordHash(algorithm: .bcrypt, parameters: .init(), hash: Data(costly.utf8), salt: Data())
                Issue.record("bcrypt cost \(cost) was accepted")
            } catch {
                #expect(error.description == "bcrypt cost \(cost): 4 to 12 here, so that a check stays cheap")
            }
        }
        #expect(throws: ImportedPasswordHash.Invalid.self) {
            try ImportedPasswordHash(algorithm: .bcrypt, parameters: .init(), hash: Data("not bcrypt".utf8), salt: Data())
        }
    }

    /// A bcrypt user in a file imported as another algorithm is named as such, not refused for its length.
    @Test func aBcryptHashUnderAnotherAlgorithmIsNamedAsBcrypt() throws {
        let example = try ImportedPasswordHash.firebaseExample()
        let error = #expect(throws: ImportedPasswordHash.Invalid.self) {
            try ImportedPasswordHash(
                algorithm: .scrypt, parameters: example.parameters, hash: Data(Bcrypt.hash("pw", cost: 4).utf8), salt: example.salt)
        }
        #expect(
            error?.description
                == "passwordHash: looks like a BCRYPT hash ($2…), not SCRYPT: one import takes one hash configuration, "
                + "so import these users in a file of their own with hash algorithm BCRYPT")
    }

    /// The store keeps an imported hash sealed under the server secret; it opens only there, and counts as outdated.
    @Test func thePasswordHasherSealsAndChecksImportedHashes() async throws {
        let secret = ServerSecret(material: Data(repeating: 7, count: 32))
        let hasher = PasswordHasher(cost: 4, secret: secret)
        let key = Data("pepper".utf8)
        let salt = Data("salt".utf8)
        let digest = Data(HMAC<SHA256>.authenticationCode(for: salt + Data("hunter22".utf8), using: SymmetricKey(data: key)))
        let imported = try ImportedPasswordHash(
            algorithm: .hmacSHA256, parameters: .init(signerKey: key, order: .saltAndPassword), hash: digest, salt: salt)
        let stored = try hasher.stored(imported)
        let sealed = try #require(Data(base64Encoded: String(stored.dropFirst("imported-v1:".count))))
        #expect(stored.hasPrefix("imported-v1:") && (try? JSONSerialization.jsonObject(with: sealed)) == nil)
        #expect(sealed.firstRange(of: key) == nil && sealed.firstRange(of: digest) == nil)
        #expect(hasher.needsRehash(stored, password: "hunter22"))
        #expect(try await hasher.verify("hunter22", against: stored))
        #expect(try await !hasher.verify("hunter23", against: stored))
        let elsewhere = PasswordHasher(cost: 4, secret: ServerSecret(material: Data(repeating: 8, count: 32)))
        #expect(try await !elsewhere.verify("hunter22", against: stored))
    }
}
