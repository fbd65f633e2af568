import Foundation
import Logging

extension AccountAdministration {
    /// What an admin creates an account with (the Admin SDKs' `create_user`, or `accounts:signUp` with the admin's
    /// bearer token), every field checked before the account exists, so a refused request creates nothing.
    package struct Creation: Sendable {
        package var id: String?
        package var email: EmailAddress?
        /// Validated (`PasswordHasher.validate`, with the administration's `passwordPolicy`, which Firebase enforces on
        /// the Admin SDKs' `create_user` too), not yet hashed.
        package var password: String?
        package var displayName: String?
        package var photoURL: String?
        package var isDisabled: Bool
        package var isEmailVerified: Bool
        package var phoneNumber: PhoneNumber?

        /// The request's fields, checked in Firebase's order: the password before the uid.
        package init(
            localId: String?, email: EmailAddress?, password: String?, displayName: String? = nil, photoURL: String? = nil, isDisabled: Bool? = nil,
            isEmailVerified: Bool? = nil, phoneNumber: String? = nil, passwordPolicy: PasswordPolicy
        ) throws(SignInError) {
            self.password = try password.map { password throws(SignInError) in try PasswordHasher.validate(password, policy: passwordPolicy) }
            self.id = try Account.chosenID(localId)
            self.email = email
            self.displayName = try ProfileText.checked(displayName)
            self.photoURL = try ProfileText.checked(photoURL)
            self.isDisabled = isDisabled ?? false
            self.isEmailVerified = isEmailVerified ?? false
            self.phoneNumber = try phoneNumber.map { number throws(SignInError) in try PhoneNumber(requestField: number) }
        }
    }

    /// Creates an account for an admin, in one write: the account, its email identity, and an `account_created` audit
    /// event. Nobody signed in, so no session opens and there is no last sign-in time (Firebase's Admin SDKs read an
    /// admin-created user's `lastLoginAt` as absent until the first sign-in). `EMAIL_EXISTS`, `PHONE_NUMBER_EXISTS` or
    /// `DUPLICATE_LOCAL_ID` leave nothing behind.
    package func create(_ creation: Creation, requester: RequesterSummary = RequesterSummary(), logger: Logger) async throws -> UserRecord {
        let now = clock.now
        var account = Account.new(id: creation.id, email: creation.email, at: now)
        if let password = creation.password { account.passwordHash = try await hasher.hash(password) }
        account.displayName = creation.displayName
        account.photoURL = creation.photoURL
        account.isDisabled = creation.isDisabled
        account.isEmailVerified = creation.isEmailVerified
        account.phoneNumber = creation.phoneNumber
        let created = account
        let user: UserRecord
        do {
            user = try await store.write { transaction in
                try await transaction.saveAccount(created, stored: nil, at: now)
                try await transaction.record(
                    AuditEvent(
                        .accountCreated, at: now, accountID: created.id, email: created.email, requester: requester,
                        detail: created.isDisabled ? "by an admin, disabled" : "by an admin"))
                return try await transaction.userRecord(created)
            }
        } catch let conflict as AccountConflict {
            throw conflict.refusal
        }
        metrics.countSignUp("admin")
        logger.debug("Account created by an admin", metadata: ["account": "\(created.id)"])
        return user
    }
}
