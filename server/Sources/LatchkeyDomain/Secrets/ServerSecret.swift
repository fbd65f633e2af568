import Crypto
import Foundation

/// The one secret behind every keyed hash, sealed outbox message and sealed signing key.
///
/// Each use gets its own key derived with HKDF, so a hash of a link code can never be replayed as a
/// refresh-token hash, a sealing key is never used for hashing, and a queued message can never be opened as a key.
package struct ServerSecret: Sendable {
    /// What a stored hash is of.
    package enum HashPurpose: Sendable {
        case linkCode
        /// The short code a sign-in email shows, with its address (`TypedCode`).
        case typedCode
        case refreshToken
        /// An email address or IP address counted by a rate limit: counters name no one in clear.
        case rateLimitSubject
        /// The `state` of a provider sign-in, by which its session is found.
        case providerState
        /// The `nonce` sent to a provider, derived from the state: nothing stored needs to hold it.
        case providerNonce
        /// The PKCE `code_verifier` of a provider sign-in, derived from the state like the nonce.
        case codeVerifier
        /// A `pendingToken`: a provider's identity kept for signing in again or linking.
        case pendingCredential
        /// The cookie that ties a sign-in the hosted page started to the browser it started in, derived from the state.
        case browserBinding
        /// The `sessionInfo` of a second-factor enrollment waiting for its first code.
        case enrollmentSession
        /// An `mfaPendingCredential`: a first factor passed, waiting for the second.
        case secondFactorChallenge
        /// A texted code's `sessionInfo`, or a `temporaryProof` (`PhoneVerification`).
        case phoneSession
        /// A texted code, bound to its `sessionInfo` (`hash(code:session:)`).
        case phoneCode
        /// A receipt `accounts:verifyClient` handed out, and the secret its silent push carried.
        case appReceipt
        case appSecret
    }

    /// What a sealed value is: each kind is sealed under its own key.
    package enum SealPurpose: Sendable {
        /// A queued message, which holds a live sign-in link.
        case outboxMessage
        /// The private half of an ID-token signing key, kept in the store.
        case signingKey
        /// The client secret of an identity provider added through the admin API.
        case providerSecret
        /// The shared secret of an authenticator app.
        case secondFactorSecret
        /// The address a sign-in email's "this wasn't me" link reports (`SignInReport`), sealed into the link itself.
        case signInReport
        /// A password hash imported from another system, with its algorithm's parameters (a signer key among them).
        case importedPassword
    }

    /// The HKDF `info` of each derived key.
    private enum KeyInfo: String {
        case linkCode = "latchkey link code v1"
        case typedCode = "latchkey typed code v1"
        case refreshToken = "latchkey refresh token v1"
        case outboxSealing = "latchkey outbox sealing v1"
        case rateLimitSubject = "latchkey rate limit subject v1"
        case signingKeySealing = "latchkey signing key sealing v1"
        case providerState = "latchkey provider state v1"
        case providerNonce = "latchkey provider nonce v1"
        case codeVerifier = "latchkey code verifier v1"
        case pendingCredential = "latchkey pending credential v1"
        case browserBinding = "latchkey browser binding v1"
        case providerSecretSealing = "latchkey provider secret sealing v1"
        case enrollmentSession = "latchkey enrollment session v1"
        case secondFactorChallenge = "latchkey second factor challenge v1"
        case phoneSession = "latchkey phone session v1"
        case phoneCode = "latchkey phone code v1"
        case secondFactorSecretSealing = "latchkey second factor secret sealing v1"
        case signInReportSealing = "latchkey sign-in report sealing v1"
        case importedPasswordSealing = "latchkey imported password sealing v1"
        case appReceipt = "latchkey app receipt v1"
        case appSecret = "latchkey app secret v1"
    }

    /// The keyed hashes, keyed once: copying a keyed HMAC skips deriving its pads again for every hash.
    private let linkCodeMAC: HMAC<SHA256>
    private let typedCodeMAC: HMAC<SHA256>
    private let refreshTokenMAC: HMAC<SHA256>
    private let sealingKey: SymmetricKey
    private let rateLimitMAC: HMAC<SHA256>
    private let signingKeySealingKey: SymmetricKey
    private let providerStateMAC: HMAC<SHA256>
    private let providerNonceMAC: HMAC<SHA256>
    private let codeVerifierMAC: HMAC<SHA256>
    private let pendingCredentialMAC: HMAC<SHA256>
    private let browserBindingMAC: HMAC<SHA256>
    private let providerSecretSealingKey: SymmetricKey
    private let enrollmentSessionMAC: HMAC<SHA256>
    private let secondFactorChallengeMAC: HMAC<SHA256>
    private let phoneSessionMAC: HMAC<SHA256>
    private let phoneCodeMAC: HMAC<SHA256>
    private let secondFactorSecretSealingKey: SymmetricKey
    private let signInReportSealingKey: SymmetricKey
    private let importedPasswordSealingKey: SymmetricKey
    private let appReceiptMAC: HMAC<SHA256>
    private let appSecretMAC: HMAC<SHA256>

    /// - Parameter material: at least 32 bytes of secret material.
    package init(material: some DataProtocol) {
        let master = SymmetricKey(data: Data(material))
        func derive(_ purpose: KeyInfo) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data(purpose.rawValue.utf8), outputByteCount: 32)
        }
        linkCodeMAC = HMAC(key: derive(.linkCode))
        typedCodeMAC = HMAC(key: derive(.typedCode))
        refreshTokenMAC = HMAC(key: derive(.refreshToken))
        sealingKey = derive(.outboxSealing)
        rateLimitMAC = HMAC(key: derive(.rateLimitSubject))
        signingKeySealingKey = derive(.signingKeySealing)
        providerStateMAC = HMAC(key: derive(.providerState))
        providerNonceMAC = HMAC(key: derive(.providerNonce))
        codeVerifierMAC = HMAC(key: derive(.codeVerifier))
        pendingCredentialMAC = HMAC(key: derive(.pendingCredential))
        browserBindingMAC = HMAC(key: derive(.browserBinding))
        providerSecretSealingKey = derive(.providerSecretSealing)
        enrollmentSessionMAC = HMAC(key: derive(.enrollmentSession))
        secondFactorChallengeMAC = HMAC(key: derive(.secondFactorChallenge))
        phoneSessionMAC = HMAC(key: derive(.phoneSession))
        phoneCodeMAC = HMAC(key: derive(.phoneCode))
        secondFactorSecretSealingKey = derive(.secondFactorSecretSealing)
        signInReportSealingKey = derive(.signInReportSealing)
        importedPasswordSealingKey = derive(.importedPasswordSealing)
        appReceiptMAC = HMAC(key: derive(.appReceipt))
        appSecretMAC = HMAC(key: derive(.appSecret))
    }

    /// The keyed hash stored in place of a code or token.
    package func hash(_ token: String, for purpose: HashPurpose) -> Data {
        var mac =
            switch purpose {
            case .linkCode: linkCodeMAC
            case .typedCode: typedCodeMAC
            case .refreshToken: refreshTokenMAC
            case .rateLimitSubject: rateLimitMAC
            case .providerState: providerStateMAC
            case .providerNonce: providerNonceMAC
            case .codeVerifier: codeVerifierMAC
            case .pendingCredential: pendingCredentialMAC
            case .browserBinding: browserBindingMAC
            case .enrollmentSession: enrollmentSessionMAC
            case .secondFactorChallenge: secondFactorChallengeMAC
            case .phoneSession: phoneSessionMAC
            case .phoneCode: phoneCodeMAC
            case .appReceipt: appReceiptMAC
            case .appSecret: appSecretMAC
            }
        mac.update(data: Data(token.utf8))
        return Data(mac.finalize())
    }

    /// The keyed hash of a texted code, bound to its `sessionInfo`: the same code texted twice hashes apart, and a
    /// code is only ever compared with the one its session was sent.
    package func hash(code: String, session: String) -> Data {
        hash(session + "\u{0}" + code, for: .phoneCode)
    }

    /// Encrypts a value for its time in the database: a queued message by default, or a signing key.
    package func seal(_ plaintext: [UInt8], for purpose: SealPurpose = .outboxMessage) throws -> Data {
        try ChaChaPoly.seal(plaintext, using: key(for: purpose)).combined
    }

    /// Decrypts what `seal` produced for the same purpose; throws when it was tampered with, sealed under another
    /// secret or sealed for another purpose.
    package func open(_ sealed: Data, for purpose: SealPurpose = .outboxMessage) throws -> Data {
        try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed), using: key(for: purpose))
    }

    private func key(for purpose: SealPurpose) -> SymmetricKey {
        switch purpose {
        case .outboxMessage: sealingKey
        case .signingKey: signingKeySealingKey
        case .providerSecret: providerSecretSealingKey
        case .secondFactorSecret: secondFactorSecretSealingKey
        case .signInReport: signInReportSealingKey
        case .importedPassword: importedPasswordSealingKey
        }
    }

    /// A fresh URL-safe token carrying `bytes` bytes from the system CSPRNG (43 characters for 32 bytes).
    package static func makeToken(bytes: Int = 32) -> String {
        randomBytes(bytes).base64URLEncoded()
    }

    /// `count` bytes from the kernel's CSPRNG in one `getrandom` call (glibc's `arc4random_buf`), where the standard
    /// library's generator makes a call per eight bytes: tokens and ids are drawn on the store's writer thread.
    package static func randomBytes(_ count: Int) -> Data {
        var bytes = Data(count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { arc4random_buf(base, buffer.count) }
        }
        return bytes
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5), as used in links and JWTs.
    package func base64URLEncoded() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(count * 4 / 3 + 3)
        for byte in base64EncodedData() {
            switch byte {
            case UInt8(ascii: "+"): output.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): output.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension Data {
    /// Base64url, padded or not (RFC 4648 §5); nil for anything else.
    package init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
