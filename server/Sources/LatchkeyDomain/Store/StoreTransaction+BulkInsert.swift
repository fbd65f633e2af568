import Foundation

extension StoreTransaction {
    /// Inserts new accounts, then their identities and phone factors, hundreds of rows to a statement (imports), through
    /// the statements `latchkey copy` inserts with. A clash with a stored row throws as the store's constraint says.
    func insert(_ accounts: [Account], identities: [Identity], phoneFactors: [SecondFactor] = []) async throws {
        for page in accounts.chunked(by: Self.rowsPerStatement) {
            try await insert(page.map(Self.row(_:)), into: .accounts)
        }
        for page in identities.chunked(by: Self.rowsPerStatement) {
            try await insert(page.map(Self.row(_:)), into: .identities)
        }
        for page in phoneFactors.compactMap(Self.row(_:)).chunked(by: Self.rowsPerStatement) {
            try await insert(Array(page), into: .secondFactors)
        }
    }

    /// Far below both stores' limits on bound values (SQLite 32,766, PostgreSQL 65,535) at ten columns.
    private static var rowsPerStatement: Int { 500 }

    /// `account` in the order of `CopiedTable.accounts.columns`.
    private static func row(_ account: Account) -> [CopiedValue] {
        [
            .text(account.id), text(account.email?.value), .boolean(account.isEmailVerified), text(account.passwordHash),
            .boolean(account.isDisabled), .real(account.validSince.timeIntervalSince1970), .real(account.createdAt.timeIntervalSince1970),
            account.lastSignInAt.map { .real($0.timeIntervalSince1970) } ?? .null, text(account.displayName), text(account.photoURL),
            text(account.customClaims?.json), text(account.phoneNumber?.value),
        ]
    }

    /// A phone factor in the order of `CopiedTable.secondFactors.columns`; nil for a TOTP one, which an import never has.
    private static func row(_ factor: SecondFactor) -> [CopiedValue]? {
        guard let number = factor.phoneNumber else { return nil }
        return [
            .text(factor.id), .text(factor.accountID), text(factor.displayName), .real(factor.enrolledAt.timeIntervalSince1970), .null, .integer(0),
            .text(number.value),
        ]
    }

    /// `identity` in the order of `CopiedTable.identities.columns`.
    private static func row(_ identity: Identity) -> [CopiedValue] {
        [
            .text(identity.providerID), .text(identity.providerUserID), .text(identity.accountID), text(identity.email?.value),
            .boolean(identity.isEmailVerified), text(identity.displayName), text(identity.photoURL), text(identity.rawProfile),
            .real(identity.createdAt.timeIntervalSince1970),
        ]
    }

    private static func text(_ value: String?) -> CopiedValue {
        value.map(CopiedValue.text) ?? .null
    }
}
