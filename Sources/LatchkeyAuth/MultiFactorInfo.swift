import Foundation
import LatchkeyWire

/// A second factor enrolled on the account (Firebase's `MultiFactorInfo`): a TOTP authenticator, or a phone, which is
/// a `PhoneMultiFactorInfo` (`hint as? PhoneMultiFactorInfo`, as with Firebase's SDK).
///
/// A class, as Firebase's, so that the phone's kind is a subclass; `@unchecked Sendable` because a non-final class
/// cannot be checked: it holds one immutable `Sendable` value and its one subclass adds nothing.
public class MultiFactorInfo: Codable, Equatable, @unchecked Sendable {
    let factor: EnrolledFactor

    public var uid: String { factor.uid }
    public var displayName: String? { factor.displayName }
    public var enrollmentDate: Date? { factor.enrollmentDate }
    /// `totp` or `phone`.
    public var factorID: String { factor.factorID }

    init(_ factor: EnrolledFactor) {
        self.factor = factor
    }

    /// The factor as its kind's class.
    static func make(_ factor: EnrolledFactor) -> MultiFactorInfo {
        factor.factorID == PhoneMultiFactorGenerator.factorID ? PhoneMultiFactorInfo(factor) : MultiFactorInfo(factor)
    }

    public required init(from decoder: any Decoder) throws {
        factor = try EnrolledFactor(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try factor.encode(to: encoder)
    }

    public static func == (lhs: MultiFactorInfo, rhs: MultiFactorInfo) -> Bool {
        lhs.factor == rhs.factor
    }
}

/// A phone second factor (Firebase's `PhoneMultiFactorInfo`): a sign-in challenge's hint to pass to
/// `PhoneAuthProvider.verifyPhoneNumber(with:multiFactorSession:)`.
public final class PhoneMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    public static let PhoneMultiFactorID = PhoneMultiFactorGenerator.factorID
    public static let TOTPMultiFactorID = TOTPMultiFactorGenerator.factorID

    /// The number: whole for the signed-in owner, masked but for its last four digits in a challenge (`+*******0101`).
    public var phoneNumber: String { factor.phoneNumber ?? "" }
}

/// A factor as the service lists it and the library stores it with the user (the keys `MultiFactorInfo` had when it
/// was a struct, so that sessions stored by earlier versions still read).
struct EnrolledFactor: Codable, Sendable, Equatable {
    let uid: String
    let displayName: String?
    let enrollmentDate: Date?
    let factorID: String
    let phoneNumber: String?

    init(_ enrollment: MfaEnrollment) {
        uid = enrollment.mfaEnrollmentId
        displayName = enrollment.displayName
        enrollmentDate = Self.date(enrollment.enrolledAt)
        // The SDKs tell the kind by the key present, as the service writes it.
        factorID = enrollment.phoneInfo == nil ? TOTPMultiFactorGenerator.factorID : PhoneMultiFactorGenerator.factorID
        phoneNumber = enrollment.phoneInfo
    }

    /// RFC 3339, with milliseconds as the service writes it, or without.
    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
