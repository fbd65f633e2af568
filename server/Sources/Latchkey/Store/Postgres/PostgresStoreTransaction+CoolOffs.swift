import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func coolOff(for email: EmailAddress, at now: Date) async throws -> Date? {
        try await row("SELECT until FROM cool_offs WHERE email = \(email.value) AND until > \(now.timeIntervalSince1970)")
            .map { Date(timeIntervalSince1970: try $0["until"].decode(Double.self)) }
    }

    func startCoolOff(for email: EmailAddress, until end: Date) async throws {
        try await execute(
            """
            INSERT INTO cool_offs (email, until) VALUES (\(email.value), \(end.timeIntervalSince1970))
            ON CONFLICT (email) DO UPDATE SET until = excluded.until
            """)
    }

    func liftCoolOff(for email: EmailAddress, at now: Date) async throws -> Bool {
        try await row("DELETE FROM cool_offs WHERE email = \(email.value) AND until > \(now.timeIntervalSince1970) RETURNING 1") != nil
    }

    func coolOffs(at now: Date) async throws -> [(email: EmailAddress, until: Date)] {
        try await rows("SELECT email, until FROM cool_offs WHERE until > \(now.timeIntervalSince1970) ORDER BY until, id").compactMap { row in
            guard let email = EmailAddress(try row["email"].decode(String.self)) else { return nil }
            return (email, Date(timeIntervalSince1970: try row["until"].decode(Double.self)))
        }
    }
}
