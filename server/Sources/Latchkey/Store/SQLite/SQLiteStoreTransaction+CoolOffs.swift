import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func coolOff(for email: EmailAddress, at now: Date) async throws -> Date? {
        try row(sql: "SELECT until FROM cool_offs WHERE email = ? AND until > ?", arguments: [email.value, now.timeIntervalSince1970])
            .map { Date(timeIntervalSince1970: $0["until"]) }
    }

    func startCoolOff(for email: EmailAddress, until end: Date) async throws {
        try execute(
            sql: "INSERT INTO cool_offs (email, until) VALUES (?, ?) ON CONFLICT (email) DO UPDATE SET until = excluded.until",
            arguments: [email.value, end.timeIntervalSince1970])
    }

    func liftCoolOff(for email: EmailAddress, at now: Date) async throws -> Bool {
        try execute(sql: "DELETE FROM cool_offs WHERE email = ? AND until > ?", arguments: [email.value, now.timeIntervalSince1970])
        return db.changesCount == 1
    }

    func coolOffs(at now: Date) async throws -> [(email: EmailAddress, until: Date)] {
        try rows(sql: "SELECT email, until FROM cool_offs WHERE until > ? ORDER BY until, id", arguments: [now.timeIntervalSince1970])
            .compactMap { row in EmailAddress(row["email"]).map { ($0, Date(timeIntervalSince1970: row["until"])) } }
    }
}
