import Foundation
import LatchkeyWire

extension UserInfo {
    /// The account as Firebase describes it; a password hash is never shown, only "REDACTED" in base64, as Firebase
    /// answers.
    init(_ account: Account) {
        func milliseconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970 * 1000)) }
        self.init(
            localId: account.id, email: account.email?.value, emailVerified: account.isEmailVerified, displayName: account.displayName,
            photoUrl: account.photoURL, passwordHash: account.passwordHash == nil ? nil : "UkVEQUNURUQ=",
            providerUserInfo: Self.providers(of: account), validSince: String(Int64(account.validSince.timeIntervalSince1970)),
            disabled: account.isDisabled ? true : nil, createdAt: milliseconds(account.createdAt),
            lastLoginAt: account.lastSignInAt.map(milliseconds),
            // Firebase marks users who sign in by email link; absent otherwise.
            emailLinkSignin: account.signInMethods.contains(.emailLink) ? true : nil)
    }

    /// How the account signs in, as `providerUserInfo` lists it: an address is the password provider's, which
    /// Firebase also files email-link sign-in under.
    static func providers(of account: Account) -> [ProviderUserInfo] {
        guard let email = account.email?.value else { return [] }
        return [ProviderUserInfo(providerId: "password", federatedId: email, email: email, rawId: email)]
    }
}
