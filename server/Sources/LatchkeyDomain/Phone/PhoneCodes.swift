import Foundation

/// Texted codes: drawn, kept and texted in the caller's transaction, and checked when they come back.
///
/// A code is six digits from the CSPRNG, kept only as a keyed hash bound to its `sessionInfo` (`ServerSecret.hash(code:
/// session:)`), for one purpose, until `lifetime` has passed; each try is counted before the code is looked at, by one
/// conditional statement, so no burst of concurrent guesses gets more than `PhoneVerification.maximumAttempts` of them.
/// The text goes into the durable outbox with the verification, so an acknowledged send is never lost.
package struct PhoneCodes: Sendable {
    /// Firebase's phone codes live a few minutes; five here, as `phone.codeLifetimeSeconds` sets.
    package static let defaultLifetime: TimeInterval = 300
    /// How long a `temporaryProof` signs in to the account that has its number (Firebase's `temporaryProofExpiresIn`).
    package static let proofLifetime: TimeInterval = 3600

    let secret: ServerSecret
    let outbox: OutboxSignal
    let lifetime: TimeInterval

    package init(secret: ServerSecret, outbox: OutboxSignal, lifetime: TimeInterval = defaultLifetime) {
        self.secret = secret
        self.outbox = outbox
        self.lifetime = lifetime
    }

    /// Draws a code for `purpose`, keeps its verification and queues its text to `number`, in `transaction`; returns
    /// the `sessionInfo` the app sends back with the code.
    func issue(
        _ purpose: PhoneVerification.Purpose, to number: PhoneNumber, accountID: String? = nil, factorID: String? = nil, language: LanguageTag,
        at now: Date, in transaction: any StoreTransaction
    ) async throws -> String {
        let (sessionInfo, code) = (ServerSecret.makeToken(), Self.makeCode())
        try await transaction.insert(
            PhoneVerification(
                sessionHash: secret.hash(sessionInfo, for: .phoneSession), purpose: purpose, phoneNumber: number,
                codeHash: secret.hash(code: code, session: sessionInfo), accountID: accountID, factorID: factorID, createdAt: now,
                expiresAt: now.addingTimeInterval(lifetime)))
        let text = VerificationText(code: code, purpose: purpose.textPurpose, language: language)
        try await transaction.enqueue(try text.queued(to: number, secret: secret, at: now))
        return sessionInfo
    }

    /// The verification `sessionInfo` names for `purpose`, if `code` is its code: the try is counted first, and a right
    /// code spends it. Refusals are returned, not thrown, so that the counted try is kept: `INVALID_SESSION_INFO` for
    /// none (or none left to try), `SESSION_EXPIRED`, `INVALID_CODE`.
    func redeem(
        sessionInfo: String, code: String, for purpose: PhoneVerification.Purpose, at now: Date, in transaction: any StoreTransaction
    ) async throws -> Verdict<PhoneVerification> {
        let sessionHash = secret.hash(sessionInfo, for: .phoneSession)
        guard let verification = try await transaction.claimPhoneVerificationAttempt(sessionHash: sessionHash, purpose: purpose) else {
            return .refused(.invalidSessionInfo)
        }
        guard now < verification.expiresAt else { return .refused(.sessionExpired) }
        guard let expected = verification.codeHash, Self.isSameHash(expected, secret.hash(code: code, session: sessionInfo)) else {
            return .refused(.invalidCode)
        }
        guard try await transaction.deletePhoneVerification(sessionHash: sessionHash) else { return .refused(.invalidSessionInfo) }
        return .accepted(verification)
    }

    /// Keeps a `temporaryProof` of `number`, in `transaction`, and returns it.
    func prove(_ number: PhoneNumber, at now: Date, in transaction: any StoreTransaction) async throws -> String {
        let proof = ServerSecret.makeToken()
        try await transaction.insert(
            PhoneVerification(
                sessionHash: secret.hash(proof, for: .phoneSession), purpose: .temporaryProof, phoneNumber: number, codeHash: nil, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.proofLifetime)))
        return proof
    }

    /// Spends the `temporaryProof` of `number`: `INVALID_TEMPORARY_PROOF` unless it is live and proves that number.
    func spend(proof: String, of number: PhoneNumber, at now: Date, in transaction: any StoreTransaction) async throws -> Verdict<PhoneNumber> {
        let proofHash = secret.hash(proof, for: .phoneSession)
        guard let verification = try await transaction.claimPhoneVerificationAttempt(sessionHash: proofHash, purpose: .temporaryProof),
            now < verification.expiresAt, verification.phoneNumber == number,
            try await transaction.deletePhoneVerification(sessionHash: proofHash)
        else { return .refused(.invalidTemporaryProof) }
        return .accepted(number)
    }

    /// Wakes the outbox for the texts a committed transaction queued.
    func nudge() {
        outbox.nudge()
    }

    /// Six digits, each value equally likely: a draw is kept only below the largest multiple of a million a 32-bit
    /// number holds.
    static func makeCode() -> String {
        let bound = UInt32.max - UInt32.max % 1_000_000
        while true {
            let draw = ServerSecret.randomBytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard draw < bound else { continue }
            let digits = String(draw % 1_000_000)
            return String(repeating: "0", count: 6 - digits.count) + digits
        }
    }

    /// Compares two keyed hashes in time independent of where they differ.
    private static func isSameHash(_ a: Data, _ b: Data) -> Bool {
        a.count == b.count && zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension PhoneVerification.Purpose {
    /// How the text words the code.
    fileprivate var textPurpose: VerificationText.Purpose {
        switch self {
        case .signIn, .temporaryProof: .signIn
        case .enrollment: .enrollment
        case .challenge: .challenge
        }
    }
}
