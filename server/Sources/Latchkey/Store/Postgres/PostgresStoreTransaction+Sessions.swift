import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func insert(_ session: SessionRecord) async throws {
        try await execute(
            """
            INSERT INTO sessions (id, account_id, sign_in_provider, second_factor, second_factor_kind, developer_claims, auth_time, created_at)
            VALUES (\(session.id), \(session.accountID), \(session.signInProvider.id), \(session.secondFactor?.id),
                \(session.secondFactor?.kind.rawValue), \(session.developerClaims?.json), \(session.authTime.timeIntervalSince1970),
                \(session.createdAt.timeIntervalSince1970))
            """)
    }

    func session(id: String) async throws -> SessionRecord? {
        try await row("SELECT * FROM sessions WHERE id = \(id)").map { row in
            SessionRecord(
                id: try row["id"].decode(String.self), accountID: try row["account_id"].decode(String.self),
                signInProvider: SignInProvider(id: try row["sign_in_provider"].decode(String.self)),
                secondFactor: PassedSecondFactor(
                    stored: try row["second_factor"].decode(String?.self), kind: try row["second_factor_kind"].decode(String?.self)),
                developerClaims: try row["developer_claims"].decode(String?.self).map(CustomClaims.init(stored:)),
                authTime: Date(timeIntervalSince1970: try row["auth_time"].decode(Double.self)),
                createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
                revokedAt: Self.date(try row["revoked_at"].decode(Double?.self)), isRevokedWithAccount: try row["revoked_with_account"].decode(Bool.self))
        }
    }

    func revokeSession(id: String, at now: Date) async throws {
        try await execute("UPDATE sessions SET revoked_at = \(now.timeIntervalSince1970) WHERE id = \(id) AND revoked_at IS NULL")
    }

    func revokeSessions(accountID: String, at now: Date) async throws {
        try await execute(
            """
            UPDATE sessions SET revoked_at = \(now.timeIntervalSince1970), revoked_with_account = TRUE
            WHERE account_id = \(accountID) AND revoked_at IS NULL
            """)
        try await execute("DELETE FROM second_factor_challenges WHERE account_id = \(accountID)")
    }

    func revokeSessions(accountID: String, signedInWith providerID: String, at now: Date) async throws -> Int {
        try await rows(
            """
            UPDATE sessions SET revoked_at = \(now.timeIntervalSince1970), revoked_with_account = TRUE
            WHERE account_id = \(accountID) AND sign_in_provider = \(providerID) AND revoked_at IS NULL RETURNING id
            """
        ).count
    }

    func insert(_ token: RefreshToken) async throws {
        try await execute(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at)
            VALUES (\(token.tokenHash), \(token.sessionID), \(token.createdAt.timeIntervalSince1970))
            """)
    }

    func refreshToken(hash: Data) async throws -> RefreshToken? {
        try await row("SELECT * FROM refresh_tokens WHERE token_hash = \(hash)").map { row in
            RefreshToken(
                id: try row["id"].decode(Int64.self), tokenHash: try row["token_hash"].decode(Data.self), sessionID: try row["session_id"].decode(String.self),
                createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
                rotatedAt: Self.date(try row["rotated_at"].decode(Double?.self)))
        }
    }

    func markRotated(refreshTokenID: Int64, at now: Date) async throws -> Bool {
        try await row(
            "UPDATE refresh_tokens SET rotated_at = \(now.timeIntervalSince1970) WHERE id = \(refreshTokenID) AND rotated_at IS NULL RETURNING 1"
        ) != nil
    }
}
