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
            providerUserInfo: user.providerUserInfo, validSince: String(Int64(account.validSince.timeIntervalSince1970)),
            disabled: account.isDisabled ? true : nil, createdAt: milliseconds(account.createdAt),
            lastLoginAt: account.lastSignInAt.map(milliseconds),
            // Firebase marks users who sign in by email link; absent otherwise.
            emailLinkSignin: user.signInMethods.contains("emailLink") ? true : nil,
            mfaInfo: (user.secondFactors ?? []).isEmpty ? nil : user.secondFactors?.map { MfaEnrollment($0) },
            customAttributes: account.customClaims?.json, phoneNumber: account.phoneNumber?.value)
    }
}

extension UserRecord {
    /// Firebase's `providerUserInfo`: each identity, and the account's number as the `phone` entry.
    var providerUserInfo: [ProviderUserInfo] {
        let phone = account.phoneNumber.map {
            ProviderUserInfo(providerId: SignInProvider.phone.id, federatedId: nil, email: nil, rawId: $0.value, phoneNumber: $0.value)
        }
        return identities.map(ProviderUserInfo.init(_:)) + (phone.map { [$0] } ?? [])
    }
}

extension MfaEnrollment {
    /// A factor as `mfaInfo` lists it: never an authenticator's secret, and a phone's number whole or `masked`.
    init(_ factor: SecondFactor, masked: Bool = false) {
        let phone = factor.phoneNumber.map { masked ? $0.masked : $0.value }
        self.init(
            mfaEnrollmentId: factor.id, displayName: factor.displayName, enrolledAt: Self.timestamp(factor.enrolledAt),
            totpInfo: phone == nil ? OpaqueObject() : nil, phoneInfo: phone)
    }

    /// RFC 3339 UTC with milliseconds, the one form the iOS SDK parses (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`), rounded to the
    /// nearest millisecond: a time read as `…05.678Z` is a double a hair below it, and goes out as it came in.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: TimeInterval(fraction < 0 ? seconds - 1 : seconds))
        let text = whole.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeZone(separator: .omitted))
        let digits = String((fraction + 1000) % 1000)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
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
