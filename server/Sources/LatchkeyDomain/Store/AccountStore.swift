import Foundation

/// Accounts, by id, by address and by phone number. Ids, addresses and numbers are unique keys: a clash throws `AccountConflict`.
package protocol AccountStore {
    func account(email: EmailAddress) async throws -> Account?
    func account(id: String) async throws -> Account?
    func account(phoneNumber: PhoneNumber) async throws -> Account?
    /// The accounts with any of these ids, addresses or numbers, each once, in no particular order (imports, many at a time).
    func accounts(ids: [String], emails: [EmailAddress], phoneNumbers: [PhoneNumber]) async throws -> [Account]
    /// Up to `limit` accounts in id order (bytewise), after the id `after`: a page of the admin listing.
    func accounts(after: String?, limit: Int) async throws -> [Account]
    /// The account, held until the transaction ends (PostgreSQL's `FOR NO KEY UPDATE`; SQLite has one writer), so a change
    /// decided on what it read cannot lose a concurrent one.
    func lockedAccount(id: String) async throws -> Account?
    /// The account with this address, held as `lockedAccount(id:)` holds it.
    func lockedAccount(email: EmailAddress) async throws -> Account?
    /// The account with this phone number, held as `lockedAccount(id:)` holds it.
    func lockedAccount(phoneNumber: PhoneNumber) async throws -> Account?
    func insert(_ account: Account) async throws
    /// Writes every column but `validSince`, which only ever moves forward: a write built from a read older than a
    /// concurrent revocation never brings revoked tokens back.
    func update(_ account: Account) async throws
    /// Sets the account's last sign-in alone, leaving every other column as a concurrent change left it.
    func recordSignIn(accountID: String, at now: Date) async throws
    /// Moves `validSince` forward to `instant` (never back), alone; PostgreSQL then holds the account's row until the
    /// transaction ends, so what the transaction counts of the account next no concurrent one can change.
    func raiseValidSince(accountID: String, to instant: Date) async throws
    /// Deletes the account with its identities and revokes its sessions (kept a while, so a refresh answers `USER_NOT_FOUND`).
    func deleteAccount(id: String, at now: Date) async throws
}
