import Foundation

/// An account with the identities that sign in to it: what lookups, `createAuthUri` and ID tokens describe.
package struct UserRecord: Sendable, Equatable {
    package var account: Account
    package var identities: [Identity]
    /// Loaded only where the account is described (`lookup`), not for every token: nil when not loaded.
    package var secondFactors: [SecondFactor]?

    package init(account: Account, identities: [Identity], secondFactors: [SecondFactor]? = nil) {
        self.account = account
        self.identities = identities
        self.secondFactors = secondFactors
    }

    /// Whether nothing but its sessions signs in to the account: no address, no password, no phone, no provider.
    package var isAnonymous: Bool {
        account.email == nil && account.passwordHash == nil && account.phoneNumber == nil && identities.isEmpty
    }

    /// Firebase's `allProviders`: each provider once, in the order they were linked, and `phone` last when the account
    /// has a number (which is the account's, not a stored identity: one account per number).
    package var providerIDs: [String] {
        var seen = Set<String>()
        return (identities.map(\.providerID) + (account.phoneNumber == nil ? [] : [SignInProvider.phone.id])).filter { seen.insert($0).inserted }
    }

    /// Firebase's `signinMethods`: the email identity counts as a password while one is set and as an email link once
    /// its address is proven (Firebase files both under the password provider); any other identity by its provider, and
    /// a number as `phone`.
    package var signInMethods: [String] {
        identities.flatMap { identity -> [String] in
            guard identity.providerID == SignInProvider.password.id else { return [identity.providerID] }
            return (account.passwordHash != nil ? ["password"] : []) + (identity.isEmailVerified ? ["emailLink"] : [])
        } + (account.phoneNumber == nil ? [] : [SignInProvider.phone.id])
    }

    /// Firebase's `firebase.identities` claim: the email identity under `email`, any other under its provider id, with
    /// the addresses providers gave under `email` too, and the number under `phone`.
    package var tokenIdentities: [String: [String]] {
        var claim: [String: [String]] = [:]
        func add(_ value: String, under key: String) {
            if claim[key, default: []].contains(value) == false { claim[key, default: []].append(value) }
        }
        for identity in identities {
            if identity.providerID != SignInProvider.password.id { add(identity.providerUserID, under: identity.providerID) }
            if let email = identity.email { add(email.value, under: "email") }
        }
        if let number = account.phoneNumber { add(number.value, under: SignInProvider.phone.id) }
        return claim
    }
}

extension Account {
    /// The identity an address gives an account: provider `password`, the address as its user id, proven as the
    /// account's address is. A password and an email link both sign in with it.
    var emailIdentity: Identity? {
        email.map {
            Identity(
                providerID: SignInProvider.password.id, providerUserID: $0.value, accountID: id, email: $0, isEmailVerified: isEmailVerified,
                createdAt: createdAt)
        }
    }
}
