import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func insert(_ session: ProviderSession) async throws {
        try await execute(
            """
            INSERT INTO provider_sessions (state_hash, session_id, provider_id, redirect_uri, context, handoff, created_at, expires_at)
            VALUES (\(session.stateHash), \(session.sessionID), \(session.providerID), \(session.redirectURI), \(session.context), \(session.handoff),
                \(session.createdAt.timeIntervalSince1970), \(session.expiresAt.timeIntervalSince1970))
            """)
    }

    func providerSession(stateHash: Data) async throws -> ProviderSession? {
        try await row("SELECT * FROM provider_sessions WHERE state_hash = \(stateHash)").map(Self.providerSession)
    }

    func takeProviderSession(stateHash: Data) async throws -> ProviderSession? {
        try await row("DELETE FROM provider_sessions WHERE state_hash = \(stateHash) RETURNING *").map(Self.providerSession)
    }

    func insert(_ credential: PendingCredential) async throws {
        try await execute(
            """
            INSERT INTO pending_credentials (token_hash, identity, context, expires_at)
            VALUES (\(credential.tokenHash), \(PendingCredential.encode(credential)), \(credential.context),
                \(credential.expiresAt.timeIntervalSince1970))
            """)
    }

    func takePendingCredential(tokenHash: Data) async throws -> PendingCredential? {
        guard let row = try await row("DELETE FROM pending_credentials WHERE token_hash = \(tokenHash) RETURNING *") else { return nil }
        return PendingCredential.decode(
            try row["identity"].decode(String.self), tokenHash: try row["token_hash"].decode(Data.self),
            context: try row["context"].decode(String?.self), expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)))
    }

    private static func providerSession(_ row: PostgresRandomAccessRow) throws -> ProviderSession {
        ProviderSession(
            stateHash: try row["state_hash"].decode(Data.self), sessionID: try row["session_id"].decode(String.self),
            providerID: try row["provider_id"].decode(String.self), redirectURI: try row["redirect_uri"].decode(String.self),
            context: try row["context"].decode(String?.self), handoff: try row["handoff"].decode(String?.self),
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
            expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)))
    }
}
