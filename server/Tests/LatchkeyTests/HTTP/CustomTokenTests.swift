import Foundation
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// Custom-token sign-in through the HTTP API (the live binary's refusals and the Admin SDK: e2e
/// `test_custom_tokens.py`): what it does to an account with second factors. Tokens
/// here are the unsigned ones development mode takes, as the Admin SDKs mint them for an emulator.
@Suite struct CustomTokenTests {
    static var development: [String: Any] { ["mode": "development", "mfa.state": "ENABLED", "rateLimits.sendPerEmail": [] as [Any]] }

    /// An unsigned custom token for `uid`, as the Admin SDKs mint it in emulator mode.
    static func unsignedToken(uid: String, claims: [String: Any]? = nil, at now: Date) throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        var payload: [String: Any] = [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit", "uid": uid, "iat": issued,
            "exp": issued + 3600,
        ]
        payload["claims"] = claims
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URLEncoded()
        return "\(header).\(try JSONSerialization.data(withJSONObject: payload).base64URLEncoded())."
    }

    static func signIn(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signInWithCustomToken", json: #"{"token":"\#(token)","returnSecureToken":true}"#)
    }

    /// Unlike Firebase, a custom token does not pass over an account's second factor: it stops at the challenge, and
    /// the session the code opens carries the token's claims. A custom-token session cannot enroll a factor itself.
    @Test(arguments: StoreKind.all) func anEnrolledAccountStopsAtItsSecondFactor(_ store: StoreKind) async throws {
        let clock = FixedClock()
        try await withApp(Self.development, store: store, clock: clock) { client, _, mailbox in
            let first = try await SecondFactorTests.signIn(client, mailbox, message: 0)
            let uid = try #require(first["localId"] as? String)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)

            let token = try Self.unsignedToken(uid: uid, claims: ["tier": "gold"], at: clock.now)
            let challenged = try await Self.signIn(client, token).json
            #expect(challenged["idToken"] == nil && challenged["refreshToken"] == nil && challenged["isNewUser"] as? Bool == false)
            let pending = try #require(challenged["mfaPendingCredential"] as? String)
            let hints = try #require(challenged["mfaInfo"] as? [[String: Any]])
            #expect(hints.map { $0["mfaEnrollmentId"] as? String } == [authenticator.factorID])

            let code = authenticator.code(at: clock.now, steps: 1)
            let finished = try await client.finishSecondFactor(pending, factorID: authenticator.factorID, code: code).json
            let claims = try decodedClaims(of: finished["idToken"])
            let firebase = try #require(claims["firebase"] as? [String: Any])
            #expect(claims["tier"] as? String == "gold" && claims["user_id"] as? String == uid)
            #expect(firebase["sign_in_provider"] as? String == "custom" && firebase["sign_in_second_factor"] as? String == "totp")
        }
    }

    /// Without a factor the token signs straight in; a session it opens is one Firebase enrolls no factor from.
    @Test func aCustomTokenSessionCannotEnrollASecondFactor() async throws {
        let clock = FixedClock()
        try await withApp(Self.development, clock: clock) { client, _, _ in
            let answer = try await Self.signIn(client, try Self.unsignedToken(uid: "backend-user", at: clock.now)).json
            let idToken = try #require(answer["idToken"] as? String)
            #expect(answer["isNewUser"] as? Bool == true && answer["localId"] == nil)
            let started = try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#)
            #expect(SecondFactorTests.errorCode(started) == "UNSUPPORTED_FIRST_FACTOR")
        }
    }
}
