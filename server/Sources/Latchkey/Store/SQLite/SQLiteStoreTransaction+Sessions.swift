import Foundation
import GRDB
import LatchkeyDomain

/// Sessions and their refresh tokens.
extension SQLiteStoreTransaction {
    func insert(_ session: SessionRecord) async throws {
        try execute(
            sql: """
                INSERT INTO sessions (id, account_id, sign_in_provider, second_factor, second_factor_kind, developer_claims, auth_time, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                session.id, session.accountID, session.signInProvider.id, session.secondFactor?.id, session.secondFactor?.kind.rawValue,
                session.developerClaims?.json,
                session.authTime.timeIntervalSince1970, session.createdAt.timeIntervalSince1970,
            ])
    }

    func session(id: String) async throws -> SessionRecord? {
        try row(sql: "SELECT * FROM sessions WHERE id = ?", arguments: [id]).map { row in
            SessionRecord(
                id: row["id"], accountID: row["account_id"], signInProvider: SignInProvider(id: row["sign_in_provider"]),
                secondFactor: PassedSecondFactor(stored: row["second_factor"], kind: row["second_factor_kind"]), developerClaims: (row["developer_claims"] as String?).map(CustomClaims.init(stored:)),
                authTime: Date(timeIntervalSince1970: row["auth_time"]),
                createdAt: Date(timeIntervalSince1970: row["created_at"]), revokedAt: Self.date(row["revoked_at"]),
                isRevokedWithAccount: row["revoked_with_account"])
        }
    }

    func revokeSession(id: String, at now: Date) async throws {
        try execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [now.timeIntervalSince1970, id])
    }

    func revokeSessions(accountID: String, at now: Date) async throws {
        try execute(
            sql: "UPDATE sessions SET revoked_at = ?, revoked_with_account = 1 WHERE account_id = ? AND revoked_at IS NULL",
            arguments: [now.timeIntervalSince1970, accountID])
        try execute(sql: "DELETE FROM second_factor_challenges WHERE account_id = ?", arguments: [accountID])
    }

    func revokeSessions(accountID: String, signedInWith providerID: String, at now: Date) async throws -> Int {
        try execute(
            sql: """
                UPDATE sessions SET revoked_at = ?, revoked_with_account = 1
                WHERE account_id = ? AND sign_in_provider = ? AND revoked_at IS NULL
                """,
            arguments: [now.timeIntervalSince1970, accountID, providerID])
        return db.changesCount
    }

    func insert(_ token: RefreshToken) async throws {
        try execute(
            sql: "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?, ?, ?)",
            arguments: [token.tokenHash, token.sessionID, token.createdAt.timeIntervalSince1970])
    }

    func refreshToken(hash: Data) async throws -> RefreshToken? {
        try row(sql: "SELECT * FROM refresh_tokens WHERE token_hash = ?", arguments: [hash]).map { row in
            RefreshToken(
                id: row["id"], tokenHash: row["token_hash"], sessionID: row["session_id"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
                rotatedAt: Self.date(row["rotated_at"]))
        }
    }

    func markRotated(refreshTokenID: Int64, at now: Date) async throws -> Bool {
        try execute(
            sql: "UPDATE refresh_tokens SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL", arguments: [now.timeIntervalSince1970, refreshTokenID])
        return db.changesCount == 1
    }
}
