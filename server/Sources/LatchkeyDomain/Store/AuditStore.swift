import Foundation

/// The security events of accounts and addresses.
package protocol AuditStore {
    func record(_ event: AuditEvent) async throws
    /// The newest `limit` events about `email`: those naming it and those of any account that had it.
    func auditEvents(email: EmailAddress, limit: Int) async throws -> [AuditEvent]
}
