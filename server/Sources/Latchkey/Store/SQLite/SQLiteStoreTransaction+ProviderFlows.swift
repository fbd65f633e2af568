import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func insert(_ session: ProviderSession) async throws {
        try execute(
            sql: """
                INSERT INTO provider_sessions (state_hash, session_id, provider_id, redirect_uri, context, handoff, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                session.stateHash, session.sessionID, session.providerID, session.redirectURI, session.context, session.handoff,
                session.createdAt.timeIntervalSince1970, session.expiresAt.timeIntervalSince1970,
            ])
    }

    func providerSession(stateHash: Data) async throws -> ProviderSession? {
        try row(sql: "SELECT * FROM provider_sessions WHERE state_hash = ?", arguments: [stateHash]).map(Self.providerSession)
    }

    func takeProviderSession(stateHash: Data) async throws -> ProviderSession? {
        try row(sql: "DELETE FROM provider_sessions WHERE state_hash = ? RETURNING *", arguments: [stateHash]).map(Self.providerSession)
    }

    func insert(_ credential: PendingCredential) async throws {
        try execute(
            sql: "INSERT INTO pending_credentials (token_hash, identity, context, expires_at) VALUES (?, ?, ?, ?)",
            arguments: [
                credential.tokenHash, PendingCredential.encode(credential), credential.context, credential.expiresAt.timeIntervalSince1970,
            ])
    }

    func takePendingCredential(tokenHash: Data) async throws -> PendingCredential? {
        guard let row = try row(sql: "DELETE FROM pending_credentials WHERE token_hash = ? RETURNING *", arguments: [tokenHash]) else { return nil }
        return PendingCredential.decode(
            row["identity"], tokenHash: row["token_hash"], context: row["context"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }

    private static func providerSession(_ row: Row) -> ProviderSession {
        ProviderSession(
            stateHash: row["state_hash"], sessionID: row["session_id"], providerID: row["provider_id"], redirectURI: row["redirect_uri"],
            context: row["context"], handoff: row["handoff"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }
}
