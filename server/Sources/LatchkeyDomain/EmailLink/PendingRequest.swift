import Foundation

/// An emailed link (a sign-in link, or one of the other email actions) waiting for the user to come back with its code.
///
/// Only the keyed hash of the code is kept; the code itself lives in the email alone.
package struct PendingRequest: Sendable {
    package var id: Int64?
    package var codeHash: Data
    package var action: EmailAction
    /// The account an action other than sign-in is for: its code works for that account only.
    package var accountID: String?
    /// For an address change, the new address (the code was mailed there); for its undo, the address the account was
    /// changed to, which the undo replaces with `email` again.
    package var newEmail: EmailAddress?
    /// The keyed hash of the typed code the email shows with its address (`TypedCode`), when it shows one.
    package var typedCodeHash: Data?
    /// Wrong typed codes given for the address while this request lived: at `maximumMismatches` its typed code is
    /// dead, the link (which needs no such budget) not.
    package var typedCodeMisses: Int
    /// The address the code is for: where a sign-in or reset link was mailed, the account's address for a verification
    /// or a change, the address to restore for an undo.
    package var email: EmailAddress
    package var createdAt: Date
    package var expiresAt: Date
    package var language: LanguageTag
    package var continueURL: String
    package var usedAt: Date?
    package var mismatchCount: Int
    /// The apps the request named (`ActionCodeSettings`), for the landing page.
    package var iOSBundleID: String?
    package var androidPackageName: String?
    package var androidInstallApp: Bool
    package var handlesCodeInApp: Bool

    /// A wrong email this many times and the code is dead (the link and the typed code with it), so the code cannot be
    /// paired with guessed addresses; this many wrong typed codes for the address and the typed code is dead.
    package static let maximumMismatches = 5

    package init(
        id: Int64? = nil, codeHash: Data, email: EmailAddress, createdAt: Date, expiresAt: Date, language: LanguageTag,
        continueURL: String, usedAt: Date? = nil, mismatchCount: Int = 0, iOSBundleID: String? = nil, androidPackageName: String? = nil,
        androidInstallApp: Bool = false, handlesCodeInApp: Bool = false, typedCodeHash: Data? = nil, typedCodeMisses: Int = 0,
        action: EmailAction = .signIn, accountID: String? = nil, newEmail: EmailAddress? = nil
    ) {
        self.id = id
        self.codeHash = codeHash
        self.action = action
        self.accountID = accountID
        self.newEmail = newEmail
        self.typedCodeHash = typedCodeHash
        self.typedCodeMisses = typedCodeMisses
        self.email = email
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.language = language
        self.continueURL = continueURL
        self.usedAt = usedAt
        self.mismatchCount = mismatchCount
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.handlesCodeInApp = handlesCodeInApp
    }

    /// Records what `settings` asked for, so the landing page decides from what the server issued, not from the
    /// link's query, which anyone holding the link can edit.
    package init(
        _ action: EmailAction = .signIn, codeHash: Data, email: EmailAddress, createdAt: Date, expiresAt: Date, language: LanguageTag,
        settings: ActionCodeSettings
    ) {
        self.init(
            codeHash: codeHash, email: email, createdAt: createdAt, expiresAt: expiresAt, language: language, continueURL: settings.continueURL,
            iOSBundleID: settings.iOSBundleID, androidPackageName: settings.androidPackageName, androidInstallApp: settings.androidInstallApp,
            handlesCodeInApp: settings.canHandleCodeInApp, action: action)
    }

    /// Where the code's email goes: the new address for an address change, else the code's address.
    package var recipient: EmailAddress { action == .verifyAndChangeEmail ? newEmail ?? email : email }

    /// Meant for an app only (see `ActionCodeSettings.isForAppOnly`).
    package var isForAppOnly: Bool { handlesCodeInApp && (iOSBundleID != nil || androidPackageName != nil) }

    package func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Used, or killed by too many wrong emails: either way the code no longer exists for the caller.
    package var isSpent: Bool { usedAt != nil || mismatchCount >= Self.maximumMismatches }
}
