import Foundation

/// A second factor enrolled on an account (Firebase's `mfaInfo` entry): an authenticator app (`totpInfo`) or a phone
/// the codes are texted to (`phoneInfo`). An authenticator's shared secret is kept only sealed under the server secret.
package struct SecondFactor: Sendable, Equatable {
    /// The factor ids both SDKs use (`TotpMultiFactorGenerator.FACTOR_ID`, `PhoneMultiFactorGenerator.FACTOR_ID`), and
    /// what ID tokens carry as `sign_in_second_factor`.
    package enum Kind: String, Sendable {
        case totp
        case phone
    }

    /// How the factor proves itself.
    package enum Method: Sendable, Equatable {
        /// An authenticator app: its sealed shared secret, and the latest time step whose code was accepted (a code of
        /// that step or an earlier one is never accepted again, RFC 6238 §5.2, so a code seen over a shoulder or replayed
        /// from a log is spent).
        case totp(sealedSecret: Data, lastUsedStep: Int64)
        /// A phone: each sign-in texts a fresh code to the number.
        case phone(PhoneNumber)
    }

    /// Firebase's `mfaEnrollmentId`: 28 letters and digits, what an ID token's `second_factor_identifier` names.
    package var id: String
    package var accountID: String
    package var displayName: String?
    package var enrolledAt: Date
    package var method: Method

    package init(id: String, accountID: String, displayName: String?, enrolledAt: Date, method: Method) {
        self.id = id
        self.accountID = accountID
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.method = method
    }

    package var kind: Kind {
        switch method {
        case .totp: .totp
        case .phone: .phone
        }
    }

    /// The phone a phone factor texts.
    package var phoneNumber: PhoneNumber? {
        if case .phone(let number) = method { number } else { nil }
    }

    /// What a session that passed this factor names.
    package var passed: PassedSecondFactor {
        PassedSecondFactor(id: id, kind: kind)
    }
}
