import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func secondFactors(accountID: String) async throws -> [SecondFactor] {
        try await rows("SELECT * FROM second_factors WHERE account_id = \(accountID) ORDER BY enrolled_at, id").compactMap(Self.secondFactor(from:))
    }

    /// A factor as stored: a phone factor's number, or else an authenticator's sealed secret (the table's CHECK allows
    /// exactly one); a number stored before the rules it no longer passes reads as no factor.
    private static func secondFactor(from row: PostgresRandomAccessRow) throws -> SecondFactor? {
        let method: SecondFactor.Method
        if let number = try row["phone_number"].decode(String?.self) {
            guard let phone = PhoneNumber(number) else { return nil }
            method = .phone(phone)
        } else {
            guard let sealed = try row["sealed_secret"].decode(Data?.self) else { return nil }
            method = .totp(sealedSecret: sealed, lastUsedStep: try row["last_used_step"].decode(Int64.self))
        }
        return SecondFactor(
            id: try row["id"].decode(String.self), accountID: try row["account_id"].decode(String.self),
            displayName: try row["display_name"].decode(String?.self), enrolledAt: Date(timeIntervalSince1970: try row["enrolled_at"].decode(Double.self)),
            method: method)
    }

    func insert(_ factor: SecondFactor) async throws {
        let (sealed, step): (Data?, Int64) = if case .totp(let sealed, let step) = factor.method { (sealed, step) } else { (nil, 0) }
        try await execute(
            """
            INSERT INTO second_factors (id, account_id, display_name, enrolled_at, sealed_secret, last_used_step, phone_number)
            VALUES (\(factor.id), \(factor.accountID), \(factor.displayName), \(factor.enrolledAt.timeIntervalSince1970), \(sealed), \(step),
                \(factor.phoneNumber?.value))
            """)
    }

    func deleteSecondFactor(id: String, accountID: String) async throws -> Bool {
        try await row("DELETE FROM second_factors WHERE account_id = \(accountID) AND id = \(id) RETURNING 1") != nil
    }

    func deleteSecondFactors(accountID: String) async throws -> Int {
        try await rows("DELETE FROM second_factors WHERE account_id = \(accountID) RETURNING 1").count
    }

    func useSecondFactorStep(_ step: Int64, factorID: String, accountID: String) async throws -> Bool {
        try await row(
            """
            UPDATE second_factors SET last_used_step = \(step) WHERE account_id = \(accountID) AND id = \(factorID) AND last_used_step < \(step)
            RETURNING 1
            """) != nil
    }

    func insert(_ enrollment: PendingEnrollment) async throws {
        try await execute(
            """
            INSERT INTO pending_enrollments (session_hash, account_id, sealed_secret, expires_at)
            VALUES (\(enrollment.sessionHash), \(enrollment.accountID), \(enrollment.sealedSecret), \(enrollment.expiresAt.timeIntervalSince1970))
            """)
    }

    func pendingEnrollment(sessionHash: Data) async throws -> PendingEnrollment? {
        try await row("SELECT * FROM pending_enrollments WHERE session_hash = \(sessionHash)").map { row in
            PendingEnrollment(
                sessionHash: try row["session_hash"].decode(Data.self), accountID: try row["account_id"].decode(String.self),
                sealedSecret: try row["sealed_secret"].decode(Data.self),
                expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)))
        }
    }

    func deletePendingEnrollment(sessionHash: Data) async throws -> Bool {
        try await row("DELETE FROM pending_enrollments WHERE session_hash = \(sessionHash) RETURNING 1") != nil
    }

    func insert(_ challenge: SecondFactorChallenge) async throws {
        try await execute(
            """
            INSERT INTO second_factor_challenges (credential_hash, account_id, sign_in_provider, pending_sign_in, attempts, expires_at)
            VALUES (\(challenge.credentialHash), \(challenge.accountID), \(challenge.signInProvider.id), \(challenge.pending.map(PendingSignIn.encode)),
                \(challenge.attempts), \(challenge.expiresAt.timeIntervalSince1970))
            """)
    }

    func secondFactorChallenge(credentialHash: Data) async throws -> SecondFactorChallenge? {
        try await row("SELECT * FROM second_factor_challenges WHERE credential_hash = \(credentialHash)").map(Self.challenge)
    }

    func claimSecondFactorAttempt(credentialHash: Data, at now: Date) async throws -> SecondFactorChallenge? {
        try await row(
            """
            UPDATE second_factor_challenges SET attempts = attempts + 1
            WHERE credential_hash = \(credentialHash) AND attempts < \(SecondFactorChallenge.maximumAttempts) AND expires_at > \(now.timeIntervalSince1970)
            RETURNING *
            """
        ).map(Self.challenge)
    }

    private static func challenge(_ row: PostgresRandomAccessRow) throws -> SecondFactorChallenge {
        let accountID = try row["account_id"].decode(String.self)
        return SecondFactorChallenge(
            credentialHash: try row["credential_hash"].decode(Data.self), accountID: accountID,
            signInProvider: SignInProvider(id: try row["sign_in_provider"].decode(String.self)),
            pending: PendingSignIn.decode(try row["pending_sign_in"].decode(String?.self), accountID: accountID), attempts: try row["attempts"].decode(Int.self),
            expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)))
    }

    func deleteSecondFactorChallenge(credentialHash: Data) async throws -> Bool {
        try await row("DELETE FROM second_factor_challenges WHERE credential_hash = \(credentialHash) RETURNING 1") != nil
    }
}
