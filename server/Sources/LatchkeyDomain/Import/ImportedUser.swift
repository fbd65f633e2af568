import Foundation

/// An account made by another system, checked and ready to store: its profile, its password hash as that system made
/// it, and the identity providers it signs in with.
package struct ImportedUser: Sendable, Equatable {
    /// The account as it will be stored, without a password hash (`password` becomes it, sealed).
    package var account: Account
    package var password: ImportedPasswordHash?
    /// Its identity providers' identities; the email identity follows from the account's address.
    package var federatedIdentities: [Identity]
    /// Its phone factors (TOTP secrets never leave the system that made them).
    package var secondFactors: [SecondFactor]
    /// Whether the other system said when the account was made (else it is made now).
    package var hasCreationTime: Bool

    package init(
        account: Account, password: ImportedPasswordHash?, federatedIdentities: [Identity], secondFactors: [SecondFactor] = [], hasCreationTime: Bool = true
    ) {
        self.account = account
        self.password = password
        self.federatedIdentities = federatedIdentities
        self.secondFactors = secondFactors
        self.hasCreationTime = hasCreationTime
    }

    /// Every identity the account gets: the email identity for an address, then the providers'.
    var identities: [Identity] {
        [account.emailIdentity].compactMap { $0 } + federatedIdentities
    }

    /// Whether `stored`, with `storedIdentities`, is this user imported before: the same profile and creation time, a
    /// password if this user has one, and each of its identities. What sign-ins change since (the hash replaced, the
    /// address verified by a link, the last sign-in, revocations, identities linked) does not count.
    func isImported(as stored: Account, identities storedIdentities: [Identity]) -> Bool {
        let new = account
        let keys = Set(storedIdentities.map(\.key))
        return stored.email == new.email && (stored.isEmailVerified || !new.isEmailVerified) && stored.displayName == new.displayName
            && stored.photoURL == new.photoURL && stored.phoneNumber == new.phoneNumber && stored.isDisabled == new.isDisabled && stored.customClaims?.members == new.customClaims?.members
            && (!hasCreationTime || abs(stored.createdAt.timeIntervalSince(new.createdAt)) < 0.001) && (password == nil || stored.passwordHash != nil)
            && identities.allSatisfy { keys.contains($0.key) }
    }
}

/// Why one user of an import was not imported, in Firebase's words where Firebase has them (`accounts:batchCreate`
/// answers them per user).
package enum ImportRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user's own data cannot be imported; the words say why.
    case invalid(String)
    /// An account has the user's id (`accounts:batchCreate` without `allowOverwrite`).
    case idTaken
    /// An account has the user's id but other data (`latchkey import` of a changed file).
    case idTakenWithOtherData
    case emailTaken
    case phoneNumberTaken
    case identityTaken

    package var description: String {
        switch self {
        case .invalid(let reason): reason
        case .idTaken: "localId belongs to an existing account - can not overwrite."
        case .idTakenWithOtherData: "localId belongs to an existing account with other data"
        case .emailTaken: "email exists in other account in database"
        case .phoneNumberTaken: "phone number exists in other account in database"
        case .identityTaken: "raw id exists in other account in database"
        }
    }
}
