import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func secondFactors(accountID: String) async throws -> [SecondFactor] {
        try rows(sql: "SELECT * FROM second_factors WHERE account_id = ? ORDER BY enrolled_at, id", arguments: [accountID]).compactMap { row in
            Self.secondFactor(from: row)
        }
    }

    /// A factor as stored: a phone factor's number, or else an authenticator's sealed secret (the table's CHECK allows
    /// exactly one); a number stored before the rules it no longer passes reads as no factor.
    private static func secondFactor(from row: Row) -> SecondFactor? {
        let method: SecondFactor.Method
        if let number = row["phone_number"] as String? {
            guard let phone = PhoneNumber(number) else { return nil }
            method = .phone(phone)
        } else {
            guard let sealed = row["sealed_secret"] as Data? else { return nil }
            method = .totp(sealedSecret: sealed, lastUsedStep: row["last_used_step"])
        }
        return SecondFactor(
            id: row["id"], accountID: row["account_id"], displayName: row["display_name"], enrolledAt: Date(timeIntervalSince1970: row["enrolled_at"]),
            method: method)
    }

    func insert(_ factor: SecondFactor) async throws {
        try execute(
            sql: """
                INSERT INTO second_factors (id, account_id, display_name, enrolled_at, sealed_secret, last_used_step, phone_number)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [factor.id, factor.accountID, factor.displayName, factor.enrolledAt.timeIntervalSince1970] + Self.methodArguments(factor.method))
    }

    /// The `sealed_secret`, `last_used_step` and `phone_number` of a factor.
    private static func methodArguments(_ method: SecondFactor.Method) -> StatementArguments {
        switch method {
        case .totp(let sealed, let step): [sealed, step, nil]
        case .phone(let number): [nil, 0, number.value]
        }
    }

    func deleteSecondFactor(id: String, accountID: String) async throws -> Bool {
        try execute(sql: "DELETE FROM second_factors WHERE account_id = ? AND id = ?", arguments: [accountID, id])
        return db.changesCount == 1
    }

    func deleteSecondFactors(accountID: String) async throws -> Int {
        try execute(sql: "DELETE FROM second_factors WHERE account_id = ?", arguments: [accountID])
        return db.changesCount
    }

    func useSecondFactorStep(_ step: Int64, factorID: String, accountID: String) async throws -> Bool {
        try execute(
            sql: "UPDATE second_factors SET last_used_step = ? WHERE account_id = ? AND id = ? AND last_used_step < ?",
            arguments: [step, accountID, factorID, step])
        return db.changesCount == 1
    }

    func insert(_ enrollment: PendingEnrollment) async throws {
        try execute(
            sql: "INSERT INTO pending_enrollments (session_hash, account_id, sealed_secret, expires_at) VALUES (?, ?, ?, ?)",
            arguments: [enrollment.sessionHash, enrollment.accountID, enrollment.sealedSecret, enrollment.expiresAt.timeIntervalSince1970])
    }

    func pendingEnrollment(sessionHash: Data) async throws -> PendingEnrollment? {
        try row(sql: "SELECT * FROM pending_enrollments WHERE session_hash = ?", arguments: [sessionHash]).map { row in
            PendingEnrollment(
                sessionHash: row["session_hash"], accountID: row["account_id"], sealedSecret: row["sealed_secret"],
                expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
        }
    }

    func deletePendingEnrollment(sessionHash: Data) async throws -> Bool {
        try execute(sql: "DELETE FROM pending_enrollments WHERE session_hash = ?", arguments: [sessionHash])
        return db.changesCount == 1
    }

    func insert(_ challenge: SecondFactorChallenge) async throws {
        try execute(
            sql: """
                INSERT INTO second_factor_challenges (credential_hash, account_id, sign_in_provider, pending_sign_in, attempts, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                challenge.credentialHash, challenge.accountID, challenge.signInProvider.id, challenge.pending.map(PendingSignIn.encode),
                challenge.attempts, challenge.expiresAt.timeIntervalSince1970,
            ])
    }

    func secondFactorChallenge(credentialHash: Data) async throws -> SecondFactorChallenge? {
        try row(sql: "SELECT * FROM second_factor_challenges WHERE credential_hash = ?", arguments: [credentialHash]).map(Self.challenge)
    }

    func claimSecondFactorAttempt(credentialHash: Data, at now: Date) async throws -> SecondFactorChallenge? {
        try row(
            sql: """
                UPDATE second_factor_challenges SET attempts = attempts + 1
                WHERE credential_hash = ? AND attempts < ? AND expires_at > ? RETURNING *
                """,
            arguments: [credentialHash, SecondFactorChallenge.maximumAttempts, now.timeIntervalSince1970]
        ).map(Self.challenge)
    }

    private static func challenge(_ row: Row) -> SecondFactorChallenge {
        SecondFactorChallenge(
            credentialHash: row["credential_hash"], accountID: row["account_id"], signInProvider: SignInProvider(id: row["sign_in_provider"]),
            pending: PendingSignIn.decode(row["pending_sign_in"], accountID: row["account_id"]), attempts: row["attempts"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }

    func deleteSecondFactorChallenge(credentialHash: Data) async throws -> Bool {
        try execute(sql: "DELETE FROM second_factor_challenges WHERE credential_hash = ?", arguments: [credentialHash])
        return db.changesCount == 1
    }
}
