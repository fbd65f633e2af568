import Foundation
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// An authenticator app, as a test holds it: the secret the server handed out, and the codes it makes.
struct TestAuthenticator {
    let secret: Data
    let factorID: String

    /// The code of the step `date` falls in, `steps` steps later.
    func code(at date: Date, steps: Int64 = 0) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: date) + steps)
    }

    /// The secret as `sharedSecretKey` gives it, in base32 (RFC 4648 §6, unpadded).
    static func decode(base32 text: String) throws -> Data {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var (buffer, bits, bytes) = (UInt32(0), 0, [UInt8]())
        for character in text {
            let value = try #require(alphabet.firstIndex(of: character))
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return Data(bytes)
    }
}

extension TestClientProtocol {
    /// Turns on an authenticator for the user of `idToken` at `now` (the server's clock): start, then the first code.
    /// Returns the authenticator and the finalize answer.
    func enrollAuthenticator(idToken: String, at now: Date, name: String = "Phone") async throws -> (TestAuthenticator, [String: Any]) {
        let started = try await post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#)
        let info = try #require(try started.json["totpSessionInfo"] as? [String: Any], "\(started.text)")
        let secret = try TestAuthenticator.decode(base32: try #require(info["sharedSecretKey"] as? String))
        let sessionInfo = try #require(info["sessionInfo"] as? String)
        let code = TOTP.code(secret: secret, step: TOTP.step(at: now))
        let finalized = try await post(
            "/v2/accounts/mfaEnrollment:finalize",
            json: #"{"idToken":"\#(idToken)","displayName":"\#(name)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(code)"}}"#)
        let answer = try finalized.json
        let token = try #require(answer["idToken"] as? String, "\(finalized.text)")
        let firebase = try #require(try decodedClaims(of: token)["firebase"] as? [String: Any])
        return (TestAuthenticator(secret: secret, factorID: try #require(firebase["second_factor_identifier"] as? String)), answer)
    }

    /// Answers a second-factor challenge.
    func finishSecondFactor(_ pendingCredential: String, factorID: String, code: String) async throws -> TestResponse {
        try await post(
            "/v2/accounts/mfaSignIn:finalize",
            json: #"{"mfaPendingCredential":"\#(pendingCredential)","mfaEnrollmentId":"\#(factorID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#)
    }
}

/// The claims of an ID token, unverified: what a test reads of the tokens the server signed.
func decodedClaims(of idToken: Any?) throws -> [String: Any] {
    let token = try #require(idToken as? String)
    let payload = try #require(Data(base64Encoded: token.split(separator: ".")[1].description.base64Padded))
    return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
}
