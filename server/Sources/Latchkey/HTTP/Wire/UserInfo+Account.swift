import Foundation
import LatchkeyDomain
import LatchkeyWire

extension UserInfo {
    /// The user as Firebase describes it; a password hash is never shown, only "REDACTED" in base64, as Firebase
    /// answers.
    init(_ user: UserRecord) {
        let account = user.account
        func milliseconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970 * 1000)) }
        self.init(
            localId: account.id, email: account.email?.value, emailVerified: account.isEmailVerified, displayName: account.displayName,
            photoUrl: account.photoURL, passwordHash: account.passwordHash == nil ? nil : "UkVEQUNURUQ=",
            providerUserInfo: user.identities.map(ProviderUserInfo.init(_:)), validSince: String(Int64(account.validSince.timeIntervalSince1970)),
            disabled: account.isDisabled ? true : nil, createdAt: milliseconds(account.createdAt),
            lastLoginAt: account.lastSignInAt.map(milliseconds),
            // Firebase marks users who sign in by email link; absent otherwise.
            emailLinkSignin: user.signInMethods.contains("emailLink") ? true : nil,
            mfaInfo: (user.secondFactors ?? []).isEmpty ? nil : user.secondFactors?.map(MfaEnrollment.init(_:)),
            customAttributes: account.customClaims?.json)
    }
}

extension MfaEnrollment {
    /// A factor as `mfaInfo` lists it: never its secret.
    init(_ factor: SecondFactor) {
        self.init(mfaEnrollmentId: factor.id, displayName: factor.displayName, enrolledAt: Self.timestamp(factor.enrolledAt))
    }

    /// RFC 3339 UTC with milliseconds, the one form the iOS SDK parses (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

extension ProviderUserInfo {
    /// One identity as `providerUserInfo` lists it: the provider's user id is both `rawId` and `federatedId` (for the
    /// email identity, the address; Firebase files email-link sign-in under the password provider too).
    init(_ identity: Identity) {
        self.init(
            providerId: identity.providerID, federatedId: identity.providerUserID, email: identity.email?.value, displayName: identity.displayName,
            photoUrl: identity.photoURL, rawId: identity.providerUserID)
    }
}
