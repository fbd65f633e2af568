import Foundation

/// An ID token and what it says (Firebase's `AuthTokenResult`). The claims are read, not verified: the token came
/// from the service over its own connection, and backends verify it with the service's published keys.
public struct IDTokenResult: Sendable, CustomStringConvertible, CustomReflectable {
    public let token: String
    public let expirationDate: Date
    public let issuedAtDate: Date
    public let authDate: Date
    /// `password`, `emailLink`, `anonymous`, `custom` or the identity provider's id.
    public let signInProvider: String
    /// `totp` when the sign-in passed a second factor.
    public let signInSecondFactor: String?
    /// The user the token is for (its `sub` claim).
    public let subject: String
    private let payload: Data

    init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Data(base64URLEncoded: String(parts[1])),
              let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
              let expiry = claims["exp"] as? NSNumber, let issuedAt = claims["iat"] as? NSNumber, let subject = claims["sub"] as? String
        else { throw AuthError(.invalidUserToken, message: "the ID token cannot be read") }
        self.token = token
        self.payload = payload
        self.subject = subject
        expirationDate = Date(timeIntervalSince1970: expiry.doubleValue)
        issuedAtDate = Date(timeIntervalSince1970: issuedAt.doubleValue)
        authDate = Date(timeIntervalSince1970: (claims["auth_time"] as? NSNumber)?.doubleValue ?? issuedAt.doubleValue)
        let firebase = claims["firebase"] as? [String: Any]
        signInProvider = firebase?["sign_in_provider"] as? String ?? ""
        signInSecondFactor = firebase?["sign_in_second_factor"] as? String
    }

    /// Never shows the token, nor does `dump`: it is a bearer credential until it expires.
    public var description: String { "IDTokenResult(\(subject), \(signInProvider), expires \(expirationDate))" }
    public var customMirror: Mirror { Mirror(self, children: ["subject": subject, "signInProvider": signInProvider, "expirationDate": expirationDate]) }

    /// Every claim of the token's payload.
    public var claims: [String: Any] {
        (try? JSONSerialization.jsonObject(with: payload) as? [String: Any]) ?? [:]
    }
}

extension Data {
    /// Decodes unpadded base64url, as JWTs carry it.
    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
