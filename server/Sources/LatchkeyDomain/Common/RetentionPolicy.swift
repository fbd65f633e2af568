import Foundation

/// How long rows outlive their use: as long as something can still ask about them, and no longer, so that tables
/// stay the size of what matters instead of growing with every request ever served.
package struct RetentionPolicy: Sendable, Equatable {
    /// Used and expired sign-in requests, after they expire: a link opened late still says "used" or "expired" rather
    /// than "unknown".
    package var signInRequestsAfterExpiry: TimeInterval = 86_400
    /// Rotated refresh tokens: presenting one within this time reveals a stolen token and revokes its session.
    package var rotatedRefreshTokens: TimeInterval = 7 * 86_400
    /// Revoked sessions, with their refresh tokens: finding the session is how its ID tokens are refused until they
    /// expire, and an ID token lives a day at the most (`tokens.idTokenLifetimeSeconds`).
    package var revokedSessions: TimeInterval = 2 * 86_400
    /// `audit.retentionDays`.
    package var auditEvents: TimeInterval = 90 * 86_400

    package init(auditRetentionDays: Int = 90) {
        auditEvents = TimeInterval(auditRetentionDays) * 86_400
    }

    /// Each kind of row the sweeper removes, with the time before which rows of that kind are over.
    package func cutoffs(at now: Date) -> [(ExpiringRows, Date)] {
        [
            (.signInRequests, now.addingTimeInterval(-signInRequestsAfterExpiry)),
            // Delivered mail has no use left: its sealed content was dropped at delivery.
            (.deliveredMail, now),
            (.rotatedRefreshTokens, now.addingTimeInterval(-rotatedRefreshTokens)),
            (.revokedSessions, now.addingTimeInterval(-revokedSessions)),
            (.rateCounters, now),
            (.auditEvents, now.addingTimeInterval(-auditEvents)),
            (.providerSessions, now),
            (.pendingCredentials, now),
            (.pendingEnrollments, now),
            (.secondFactorChallenges, now),
            (.phoneVerifications, now),
            (.coolOffs, now),
            (.appReceipts, now),
        ]
    }
}

/// The rows that expire, each by its own time: a sign-in request by `expires_at`, delivered mail by its delivery,
/// a refresh token by its rotation, a session by its revocation, a rate counter by its window's end, an audit event by its time,
/// a provider session, pending credential, pending enrollment, second-factor challenge, texted code or app receipt by its
/// expiry, a cool-off by its end.
package enum ExpiringRows: String, Sendable, CaseIterable {
    case signInRequests
    case deliveredMail
    case rotatedRefreshTokens
    case revokedSessions
    case rateCounters
    case auditEvents
    case providerSessions
    case pendingCredentials
    case pendingEnrollments
    case secondFactorChallenges
    case phoneVerifications
    case coolOffs
    case appReceipts
}
