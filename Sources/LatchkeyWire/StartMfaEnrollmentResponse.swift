/// Firebase's answer to `mfaEnrollment:start`: for TOTP what an authenticator app needs, as the SDKs read it
/// (`TOTPSecret`, whose `otpauth://` URI carries no period, so `periodSec` is always 30); for a phone the handle of the
/// code texted to it.
public struct StartMfaEnrollmentResponse: Sendable, Codable, Equatable {
    public struct TotpSessionInfo: Sendable, Codable, Equatable {
        /// The shared secret in upper-case base32 without padding; given only here, once.
        public var sharedSecretKey: String
        public var verificationCodeLength: Int
        /// `SHA1`, the Key URI format's spelling, as the SDKs put it in the `otpauth://` URI.
        public var hashingAlgorithm: String
        public var periodSec: Int
        /// Sent back with the first code.
        public var sessionInfo: String
        /// RFC 3339 UTC with milliseconds: the enrollment must be finished before.
        public var finalizeEnrollmentTime: String

        public init(
            sharedSecretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int, sessionInfo: String,
            finalizeEnrollmentTime: String
        ) {
            self.sharedSecretKey = sharedSecretKey
            self.verificationCodeLength = verificationCodeLength
            self.hashingAlgorithm = hashingAlgorithm
            self.periodSec = periodSec
            self.sessionInfo = sessionInfo
            self.finalizeEnrollmentTime = finalizeEnrollmentTime
        }
    }

    public var totpSessionInfo: TotpSessionInfo?
    public var phoneSessionInfo: PhoneSessionInfo?

    public init(totpSessionInfo: TotpSessionInfo? = nil, phoneSessionInfo: PhoneSessionInfo? = nil) {
        self.totpSessionInfo = totpSessionInfo
        self.phoneSessionInfo = phoneSessionInfo
    }
}
