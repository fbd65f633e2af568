import Foundation
import LatchkeyWire

/// What `accounts:update` may change. Fields left `nil` stay as they are.
struct AccountChanges: Sendable {
    /// A new password, already checked against the length rules and the password policy.
    var password: String?
    /// `deleteProvider`: the providers whose identities go; for `password` the password goes and email-link sign-in stays.
    var deletedProviders: Set<String> = []
    /// Revokes every session issued before this instant.
    var validSince: Date?
    /// A new address; it starts unverified.
    var email: EmailAddress?
    var displayName: String?
    var photoURL: String?
    var deletesDisplayName = false
    var deletesPhotoURL = false
    /// Admin only.
    var isDisabled: Bool?
    /// Admin only.
    var isEmailVerified: Bool?
    /// Admin only: new custom claims (`.some(nil)` removes them).
    var customClaims: CustomClaims??
    /// Admin only: removes every second factor (a lost phone), telling the owner by email.
    var removesSecondFactors = false
    /// Admin only: the phone factors the account is to have (`mfa.enrollments`, as the Admin SDKs send them); its
    /// TOTP factors stay. Nil leaves the phone factors as they are.
    var phoneFactors: [PhoneFactorEntry]?
    /// Admin only: a new number (`deleteProvider: ["phone"]` removes it).
    var phoneNumber: PhoneNumber?
    /// The language of the request, for the notice of removed factors.
    var language = LanguageTag.english

    /// The changes `request` asks for, each field checked; the admin-only fields are read only for `actor` an admin.
    init(_ request: SetAccountInfoRequest, language: LanguageTag, by actor: AccountActor, passwordPolicy: PasswordPolicy) throws {
        self.language = language
        if let password = request.password { self.password = try PasswordHasher.validate(password, policy: passwordPolicy) }
        deletedProviders = Set(request.deleteProvider ?? [])
        if request.email != nil { email = try EmailAddress(requestField: request.email) }
        displayName = try ProfileText.checked(request.displayName)
        photoURL = try ProfileText.checked(request.photoUrl)
        let deleted = Set(request.deleteAttribute ?? [])
        deletesDisplayName = deleted.contains("DISPLAY_NAME")
        deletesPhotoURL = deleted.contains("PHOTO_URL")
        validSince = request.validSince.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        guard case .admin = actor else { return }
        isDisabled = request.disableUser
        isEmailVerified = request.emailVerified
        if let json = request.customAttributes { customClaims = .some(try CustomClaims.parse(json)) }
        if request.phoneNumber != nil { phoneNumber = try PhoneNumber(requestField: request.phoneNumber) }
        if let mfa = request.mfa {
            let enrollments = mfa.enrollments ?? []
            if enrollments.isEmpty {
                removesSecondFactors = true
            } else {
                phoneFactors = try enrollments.map(PhoneFactorEntry.init(_:))
                guard Set(phoneFactors?.map(\.phoneNumber) ?? []).count == enrollments.count else {
                    throw SignInError.invalidArgument("Each phone number may be enrolled once.")
                }
            }
        }
    }

    /// One phone factor of an admin's `mfa.enrollments`: a factor the account has keeps its id and enrollment time.
    struct PhoneFactorEntry: Sendable {
        var id: String?
        var displayName: String?
        var phoneNumber: PhoneNumber
        var enrolledAt: Date?

        init(_ change: MfaFactor) throws {
            // TOTP factors are enrolled by their owners only; an admin can remove them (a lost phone).
            guard change.totpInfo == nil else {
                throw SignInError.unsupportedSecondFactor("TOTP factors are enrolled by their owners; an admin can only remove them.")
            }
            guard let phone = change.phoneInfo, let number = PhoneNumber(phone) else { throw SignInError.invalidPhoneNumber }
            id = change.mfaEnrollmentId.flatMap { $0.isEmpty ? nil : $0 }
            displayName = try ProfileText.checked(change.displayName.flatMap { $0.isEmpty ? nil : $0 })
            phoneNumber = number
            enrolledAt = change.enrolledAt.flatMap { try? Date($0, strategy: .iso8601) }
        }
    }

    /// Changes that a signed-in user may only make shortly after proving who they are.
    var isSensitive: Bool { password != nil || email != nil }
}
