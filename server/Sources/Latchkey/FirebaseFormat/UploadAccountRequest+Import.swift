import Foundation
import LatchkeyDomain
import LatchkeyWire

/// How an `accounts:batchCreate` request, or a `firebase auth:export` file read into one, becomes users to import: the
/// one place both check what they are given.
extension UploadAccountRequest {
    /// Firebase's limit on users per request.
    static let maximumUsers = 1000

    /// The hash configuration, checked; nil when the request names no algorithm, which only a request whose users have
    /// no password hash may do.
    func hashConfig() throws(ImportBatchRefusal) -> PasswordHashConfig? {
        guard let name = hashAlgorithm, !name.isEmpty else {
            guard !(users ?? []).contains(where: { !($0.passwordHash ?? "").isEmpty }) else { throw ImportBatchRefusal("MISSING_HASH_ALGORITHM") }
            return nil
        }
        guard let algorithm = PasswordHashAlgorithm(rawValue: name.uppercased()) else {
            let reason = name == "ARGON2" ? "this server's OpenSSL has no Argon2" : "not one of \(PasswordHashAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))"
            throw ImportBatchRefusal("INVALID_HASH_ALGORITHM : \(name): \(reason)")
        }
        guard let signerKey = Self.bytes(signerKey) else { throw ImportBatchRefusal("INVALID_SIGNER_KEY : signerKey is not base64") }
        guard let saltSeparator = Self.bytes(saltSeparator) else { throw ImportBatchRefusal("INVALID_SALT_SEPARATOR : saltSeparator is not base64") }
        var order: PasswordHashOrder?
        if let name = passwordHashOrder, !name.isEmpty, name != "UNSPECIFIED_ORDER" {
            guard let named = PasswordHashOrder(rawValue: name) else { throw ImportBatchRefusal("INVALID_PASSWORD_HASH_ORDER : \(name)") }
            order = named
        }
        let parameters = PasswordHashParameters(
            signerKey: signerKey, saltSeparator: saltSeparator, rounds: rounds.map { Int(clamping: $0) }, memoryCost: memoryCost.map { Int(clamping: $0) },
            cpuMemCost: cpuMemCost.map { Int(clamping: $0) }, blockSize: blockSize.map { Int(clamping: $0) },
            parallelization: parallelization.map { Int(clamping: $0) }, derivedKeyLength: dkLen.map { Int(clamping: $0) }, order: order)
        do {
            return try PasswordHashConfig(algorithm: algorithm, parameters: parameters)
        } catch {
            throw ImportBatchRefusal("INVALID_HASH_PARAMETERS : \(algorithm.rawValue) \(error)")
        }
    }

    /// Each user checked, in order: ready to import, or why not.
    func importedUsers(hashing config: PasswordHashConfig?, at now: Date) -> [Result<ImportedUser, ImportRefusal>] {
        (users ?? []).map { user in Result { () throws(ImportRefusal) in try Self.importedUser(user, hashing: config, at: now) } }
    }

    /// A user checked as Firebase checks it, with Firebase's per-user messages where it has them. What this server
    /// cannot honour (a TOTP factor, whose secret Firebase never exports) refuses the user rather than drop it.
    static func importedUser(_ user: User, hashing config: PasswordHashConfig?, at now: Date) throws(ImportRefusal) -> ImportedUser {
        guard let localID = user.localId, !localID.isEmpty else { throw .invalid("localId is missing") }
        guard (try? Account.chosenID(localID)) != nil else { throw .invalid("localId is invalid") }
        var email: EmailAddress?
        if let raw = user.email, !raw.isEmpty {
            guard let address = EmailAddress(raw) else { throw .invalid("email is invalid") }
            email = address
        }
        let displayName = try profileText(user.displayName, "displayName")
        let photoURL = try profileText(user.photoUrl, "photoUrl")
        var phoneNumber: PhoneNumber?
        if let raw = user.phoneNumber, !raw.isEmpty {
            guard let number = PhoneNumber(raw) else { throw .invalid("phone number format is invalid") }
            phoneNumber = number
        }
        let createdAt = try milliseconds(user.createdAt, "createdAt") ?? now
        let account = Account(
            id: localID, email: email, isEmailVerified: user.emailVerified ?? false, isDisabled: user.disabled ?? false,
            validSince: now.wholeSeconds, createdAt: createdAt, lastSignInAt: try milliseconds(user.lastLoginAt, "lastLoginAt"),
            displayName: displayName, photoURL: photoURL, customClaims: try customClaims(user.customAttributes), phoneNumber: phoneNumber)
        return ImportedUser(
            account: account, password: try password(of: user, hashing: config),
            federatedIdentities: try identities(of: user, accountID: localID, at: createdAt),
            secondFactors: try secondFactors(of: user, account: account, at: now), hasCreationTime: user.createdAt != nil)
    }

    /// The user's phone factors, checked as Firebase's emulator checks them (`src/emulator/auth/operations.ts`,
    /// `uploadAccount`): a verified address first, each id once, a valid number each; a new id and now for those the file
    /// does not give. A TOTP factor refuses the user: its secret never leaves Firebase.
    private static func secondFactors(of user: User, account: Account, at now: Date) throws(ImportRefusal) -> [SecondFactor] {
        let entries = user.mfaInfo ?? []
        guard !entries.isEmpty else { return [] }
        guard account.email != nil else { throw .invalid("Second factor account requires email to be presented.") }
        guard account.isEmailVerified else { throw .invalid("Second factor account requires email to be verified.") }
        let ids = entries.compactMap { $0.mfaEnrollmentId.flatMap { $0.isEmpty ? nil : $0 } }
        guard Set(ids).count == ids.count else { throw .invalid("Enrollment id already exists.") }
        var factors: [SecondFactor] = []
        for entry in entries {
            guard entry.totpInfo == nil, let phone = entry.phoneInfo, !phone.isEmpty else {
                throw .invalid("Second factor not supported: a TOTP factor's secret cannot be imported.")
            }
            guard let number = PhoneNumber(phone) else { throw .invalid("Phone number format is invalid") }
            let id = entry.mfaEnrollmentId.flatMap { $0.isEmpty ? nil : $0 } ?? Account.makeID()
            guard (try? Account.chosenID(id)) != nil else { throw .invalid("mfaEnrollmentId is invalid") }
            factors.append(
                SecondFactor(
                    id: id, accountID: account.id, displayName: try profileText(entry.displayName, "mfaInfo displayName"),
                    enrolledAt: entry.enrolledAt.flatMap { try? Date($0, strategy: .iso8601) } ?? now, method: .phone(number)))
        }
        return factors
    }

    private static func password(of user: User, hashing config: PasswordHashConfig?) throws(ImportRefusal) -> ImportedPasswordHash? {
        guard let encoded = user.passwordHash, !encoded.isEmpty else { return nil }
        guard let config else { throw .invalid("passwordHash needs the request's hashAlgorithm") }
        guard let hash = bytes(encoded) else { throw .invalid("passwordHash is not base64") }
        guard let salt = bytes(user.salt) else { throw .invalid("salt is not base64") }
        do {
            return try ImportedPasswordHash(algorithm: config.algorithm, parameters: config.parameters, hash: hash, salt: salt)
        } catch {
            throw .invalid("passwordHash cannot be imported: \(error)")
        }
    }

    /// The providers' identities; `password` and `phone` entries are Firebase's own bookkeeping and are skipped, as
    /// Firebase skips them.
    private static func identities(of user: User, accountID: String, at createdAt: Date) throws(ImportRefusal) -> [Identity] {
        var identities: [Identity] = []
        for provider in user.providerUserInfo ?? [] {
            guard let providerID = provider.providerId, !providerID.isEmpty, let rawID = provider.rawId, !rawID.isEmpty else {
                throw .invalid("federatedId or (providerId & rawId) is required")
            }
            if providerID == SignInProvider.password.id || providerID == "phone" { continue }
            guard providerID.count <= 128, rawID.count <= 255, providerID.displaySafe == providerID, rawID.displaySafe == rawID else {
                throw .invalid("providerUserInfo is invalid")
            }
            let displayName = try profileText(provider.displayName, "providerUserInfo displayName")
            let photoURL = try profileText(provider.photoUrl, "providerUserInfo photoUrl")
            guard !identities.contains(where: { $0.providerID == providerID && $0.providerUserID == rawID }) else { continue }
            // A provider's address is its word, not a proof: it stays unverified until the provider says so at a sign-in.
            identities.append(
                Identity(
                    providerID: providerID, providerUserID: rawID, accountID: accountID, email: provider.email.flatMap(EmailAddress.init),
                    isEmailVerified: false, displayName: displayName, photoURL: photoURL, createdAt: createdAt))
        }
        return identities
    }

    /// Custom claims as an admin may set them, refused in Firebase's words.
    private static func customClaims(_ json: String?) throws(ImportRefusal) -> CustomClaims? {
        guard let json, !json.isEmpty else { return nil }
        do {
            return try CustomClaims.parse(json)
        } catch .claimsTooLarge {
            throw .invalid("Custom claims provided are too large.")
        } catch .forbiddenClaim {
            throw .invalid("Custom claims provided include a reserved claim.")
        } catch {
            throw .invalid("Invalid custom claims provided.")
        }
    }

    /// A display name or photo URL as an admin may set one.
    private static func profileText(_ text: String?, _ field: String) throws(ImportRefusal) -> String? {
        do {
            return try ProfileText.checked(text)
        } catch {
            throw .invalid("\(field) is invalid")
        }
    }

    /// A time in milliseconds since 1970, from 1970 to 9999.
    private static func milliseconds(_ value: Int64?, _ field: String) throws(ImportRefusal) -> Date? {
        guard let value else { return nil }
        guard (0...253_402_300_799_999).contains(value) else { throw .invalid("\(field) is invalid") }
        return Date(timeIntervalSince1970: Double(value) / 1000)
    }

    /// Base64, standard or URL-safe (the URL-safe reading takes both), padded or not; nil for anything else. Absent is
    /// empty.
    static func bytes(_ text: String?) -> Data? {
        guard let text, !text.isEmpty else { return Data() }
        return Data(base64URLEncoded: text)
    }
}
