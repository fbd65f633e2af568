import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// TOTP second factors through the HTTP API, with a fixed clock: enrollment, the challenge every first factor meets,
/// the window, replay, the attempt limits, expiry, eligibility, removal and the takeover rule.
@Suite struct SecondFactorTests {
    /// Second factors on, and links as often as a story needs them.
    static var enabled: [String: Any] { ["mfa.state": "ENABLED", "rateLimits.sendPerEmail": [] as [Any]] }

    /// Signs `email` in by email link (the `index`-th message of the mailbox) and returns the answer.
    static func signIn(_ client: any TestClientProtocol, _ mailbox: Mailbox, email: String = "alice@example.com", message index: Int) async throws
        -> [String: Any]
    {
        try await client.sendLink(to: email)
        return try await client.complete(email: email, code: try await mailbox.code(at: index)).json
    }

    static func errorCode(_ response: TestResponse) -> String? {
        response.errorMessage?.components(separatedBy: " : ").first
    }

    /// Enrolling answers what an authenticator needs, signs the user in again with the factor, ends the other sessions,
    /// lists the factor, and tells the owner by email.
    @Test func enrollingSignsInAgainWithTheFactorAndEndsOtherSessions() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, workspace, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let idToken = try #require(first["idToken"] as? String)
            let started = try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#).json
            let info = try #require(started["totpSessionInfo"] as? [String: Any])
            #expect(info["verificationCodeLength"] as? Int == 6 && info["periodSec"] as? Int == 30 && info["hashingAlgorithm"] as? String == "SHA1")
            let key = try #require(info["sharedSecretKey"] as? String)
            #expect(key.count == 32 && key.allSatisfy { $0.isUppercase || ("2"..."7").contains($0) })
            #expect((info["finalizeEnrollmentTime"] as? String)?.hasSuffix(".000Z") == true)

            let (authenticator, answer) = try await client.enrollAuthenticator(idToken: idToken, at: clock.now)
            #expect(Set(answer.keys) == ["idToken", "refreshToken"])
            let firebase = try #require(try decodedClaims(of: answer["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_second_factor"] as? String == "totp" && firebase["sign_in_provider"] as? String == "password")
            #expect(firebase["second_factor_identifier"] as? String == authenticator.factorID)

            #expect(Self.errorCode(try await client.refresh(try #require(first["refreshToken"] as? String))) == "TOKEN_EXPIRED")
            let refreshed = try await client.refresh(try #require(answer["refreshToken"] as? String)).json
            let kept = try #require(try decodedClaims(of: refreshed["id_token"])["firebase"] as? [String: Any])
            #expect(kept["sign_in_second_factor"] as? String == "totp" && kept["second_factor_identifier"] as? String == authenticator.factorID)

            let user = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(try #require(refreshed["id_token"] as? String))"}"#).json
            let factors = try #require((user["users"] as? [[String: Any]])?.first?["mfaInfo"] as? [[String: Any]])
            #expect(factors.map { $0["mfaEnrollmentId"] as? String } == [authenticator.factorID])
            #expect(factors.allSatisfy { ($0["totpInfo"] as? [String: Any])?.isEmpty == true && ($0["enrolledAt"] as? String)?.hasSuffix("Z") == true })
            #expect(try await mailbox.waitForMessages(2)[1].contains("Subject: An authenticator was added to your Latchkey account"))

            // The secret is stored only sealed: neither its bytes nor its base32 are in the database file.
            let database = try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath))
            #expect(database.range(of: authenticator.secret) == nil && database.range(of: Data(authenticator.secret.base32Encoded().utf8)) == nil)
        }
    }

    /// Every first factor of an enrolled account stops at the challenge; the link's code is spent; the code of the step the
    /// enrollment used is refused (replay), the next one signs in, and the refreshed tokens keep the second factor.
    @Test func aSignInStopsAtTheChallengeAndACodeIsAcceptedOnce() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)
            try await client.sendLink(to: "alice@example.com")
            let code = try await mailbox.code(at: 2)
            let challenged = try await client.complete(email: "alice@example.com", code: code).json
            #expect(challenged["idToken"] == nil && challenged["refreshToken"] == nil && challenged["expiresIn"] == nil)
            let credential = try #require(challenged["mfaPendingCredential"] as? String)
            let factors = try #require(challenged["mfaInfo"] as? [[String: Any]])
            #expect(factors.map { $0["mfaEnrollmentId"] as? String } == [authenticator.factorID] && factors.first?["displayName"] as? String == "Phone")
            #expect(Self.errorCode(try await client.complete(email: "alice@example.com", code: code)) == "INVALID_OOB_CODE")

            let replayed = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now))
            #expect(Self.errorCode(replayed) == "INVALID_CODE")
            let passed = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now, steps: 1))
            let tokens = try passed.json
            #expect(Set(tokens.keys) == ["idToken", "refreshToken"])
            let firebase = try #require(try decodedClaims(of: tokens["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "password" && firebase["sign_in_second_factor"] as? String == "totp")
            let again = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now, steps: 2))
            #expect(Self.errorCode(again) == "INVALID_MFA_PENDING_CREDENTIAL")

            // A password sign-in meets the same challenge.
            let token = try #require(tokens["idToken"] as? String)
            #expect(try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(token)","password":"correct horse"}"#).status == .ok)
            let password = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"alice@example.com","password":"correct horse","returnSecureToken":true}"#).json
            #expect(password["idToken"] == nil && password["mfaPendingCredential"] is String && password["localId"] is String)
        }
    }

    /// Codes of up to `adjacentIntervals` steps either side are accepted (clock drift), one more is not.
    @Test func theWindowIsAdjacentIntervalsWide() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled.merging(["mfa.totp.adjacentIntervals": 2]) { $1 }, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)
            clock.advance(by: 300)
            let credential = try #require(try await Self.signIn(client, mailbox, message: 2)["mfaPendingCredential"] as? String)
            for steps: Int64 in [3, -3] {
                let outside = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now, steps: steps))
                #expect(Self.errorCode(outside) == "INVALID_CODE", "step \(steps)")
            }
            let edge = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now, steps: -2))
            #expect(edge.status == .ok, "\(edge.text)")
        }
    }

    /// Five wrong codes kill a challenge; wrong codes also count per account across challenges.
    @Test func wrongCodesAreLimitedPerChallengeAndPerAccount() async throws {
        let clock = FixedClock()
        let limits = Self.enabled.merging(["rateLimits.secondFactorPerAccount": [["limit": 7, "windowSeconds": 3600]]]) { $1 }
        try await withApp(limits, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)
            let right = authenticator.code(at: clock.now, steps: 1)
            let wrong = right == "000000" ? "111111" : "000000"
            let credential = try #require(try await Self.signIn(client, mailbox, message: 2)["mfaPendingCredential"] as? String)
            for _ in 0..<5 {
                #expect(Self.errorCode(try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: wrong)) == "INVALID_CODE")
            }
            #expect(Self.errorCode(try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: right)) == "INVALID_MFA_PENDING_CREDENTIAL")
            // The code that ended the challenge told the owner: someone got past the first factor.
            #expect(try await mailbox.waitForMessages(4)[3].contains("Subject: Someone is trying to sign in to your Latchkey account"))

            let next = try #require(try await Self.signIn(client, mailbox, message: 4)["mfaPendingCredential"] as? String)
            for _ in 0..<2 {
                #expect(Self.errorCode(try await client.finishSecondFactor(next, factorID: authenticator.factorID, code: wrong)) == "INVALID_CODE")
            }
            // Seven wrong codes fill the account's window: even the right code waits for it to end.
            #expect(Self.errorCode(try await client.finishSecondFactor(next, factorID: authenticator.factorID, code: right)) == "TOO_MANY_ATTEMPTS_TRY_LATER")
            clock.advance(by: 3601)
            let later = try #require(try await Self.signIn(client, mailbox, message: 5)["mfaPendingCredential"] as? String)
            let passed = try await client.finishSecondFactor(later, factorID: authenticator.factorID, code: authenticator.code(at: clock.now))
            #expect(passed.status == .ok, "\(passed.text)")
        }
    }

    /// Right codes are taken back from the per-account count: only wrong ones fill it.
    @Test func rightCodesDoNotFillThePerAccountWindow() async throws {
        let clock = FixedClock()
        let limits = Self.enabled.merging(["rateLimits.secondFactorPerAccount": [["limit": 2, "windowSeconds": 3600]]]) { $1 }
        try await withApp(limits, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)
            for round in 0..<4 {
                clock.advance(by: 30)
                let credential = try #require(try await Self.signIn(client, mailbox, message: 2 + round)["mfaPendingCredential"] as? String)
                let passed = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now))
                #expect(passed.status == .ok, "round \(round): \(passed.text)")
            }
        }
    }

    /// A challenge ends after `mfa.pendingCredentialTtlSeconds`, an enrollment after its `finalizeEnrollmentTime`.
    @Test func challengesAndEnrollmentsExpire() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let idToken = try #require(first["idToken"] as? String)
            let started = try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#).json
            let info = try #require(started["totpSessionInfo"] as? [String: Any])
            let secret = try TestAuthenticator.decode(base32: try #require(info["sharedSecretKey"] as? String))
            let (authenticator, enrolled) = try await client.enrollAuthenticator(idToken: idToken, at: clock.now)
            clock.advance(by: 601)
            let late = try await client.post(
                "/v2/accounts/mfaEnrollment:finalize",
                json: #"""
                    {"idToken":"\#(try #require(enrolled["idToken"] as? String))","totpVerificationInfo":{"sessionInfo":"\#(try #require(info["sessionInfo"] as? String))","verificationCode":"\#(TOTP.code(secret: secret, step: TOTP.step(at: clock.now)))"}}
                    """#)
            #expect(Self.errorCode(late) == "SESSION_EXPIRED")
            let credential = try #require(try await Self.signIn(client, mailbox, message: 2)["mfaPendingCredential"] as? String)
            clock.advance(by: 601)
            let expired = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now))
            #expect(Self.errorCode(expired) == "INVALID_MFA_PENDING_CREDENTIAL")
        }
    }

    /// Who may enroll: not an anonymous session, not an unverified address, not an old sign-in, not past the limit, not
    /// with second factors off.
    @Test func enrollmentNeedsAnEligibleRecentSessionWithRoomLeft() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled.merging(["mfa.maxFactors": 1]) { $1 }, clock: clock) { client, _, mailbox in
            func start(_ idToken: Any?) async throws -> String? {
                Self.errorCode(try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken as? String ?? "")","totpEnrollmentInfo":{}}"#))
            }
            let anonymous = try await client.post("/v1/accounts:signUp", json: "{}").json
            #expect(try await start(anonymous["idToken"]) == "UNSUPPORTED_FIRST_FACTOR")
            let unverified = try await client.post("/v1/accounts:signUp", json: #"{"email":"bob@example.com","password":"correct horse"}"#).json
            #expect(try await start(unverified["idToken"]) == "UNVERIFIED_EMAIL")
            #expect(try await start(nil) == "MISSING_ID_TOKEN")
            let alice = try await Self.signIn(client, mailbox, message: 0)
            let missing = try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(try #require(alice["idToken"] as? String))"}"#)
            #expect(Self.errorCode(missing) == "INVALID_ARGUMENT")
            let (_, enrolled) = try await client.enrollAuthenticator(idToken: try #require(alice["idToken"] as? String), at: clock.now)
            #expect(try await start(enrolled["idToken"]) == "SECOND_FACTOR_LIMIT_EXCEEDED")
            clock.advance(by: 301)
            #expect(try await start(enrolled["idToken"]) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
        try await withApp { client, _, mailbox in
            let alice = try await Self.signIn(client, mailbox, message: 0)
            let refused = try await client.post(
                "/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(try #require(alice["idToken"] as? String))","totpEnrollmentInfo":{}}"#)
            #expect(Self.errorCode(refused) == "OPERATION_NOT_ALLOWED")
            // Off is answered before anything else, even a missing token.
            #expect(Self.errorCode(try await client.post("/v2/accounts/mfaEnrollment:start", json: "{}")) == "OPERATION_NOT_ALLOWED")
        }
    }

    /// Finishing an enrollment asks for a recent sign-in as starting one does: a token that went stale in between
    /// enrolls nothing.
    @Test func finishingAnEnrollmentNeedsARecentSignIn() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, _, mailbox in
            let idToken = try #require(try await Self.signIn(client, mailbox, message: 0)["idToken"] as? String)
            let started = try await client.post("/v2/accounts/mfaEnrollment:start", json: #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#).json
            let info = try #require(started["totpSessionInfo"] as? [String: Any])
            let secret = try TestAuthenticator.decode(base32: try #require(info["sharedSecretKey"] as? String))
            clock.advance(by: 301)
            let stale = try await client.post(
                "/v2/accounts/mfaEnrollment:finalize",
                json: #"""
                    {"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(try #require(info["sessionInfo"] as? String))","verificationCode":"\#(TOTP.code(secret: secret, step: TOTP.step(at: clock.now)))"}}
                    """#)
            #expect(Self.errorCode(stale) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    /// Withdrawing a factor gives tokens without second-factor claims and ends the challenge; an admin removes them all.
    @Test func theUserWithdrawsAFactorAndAnAdminRemovesThemAll() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, _, mailbox in
            let first = try await Self.signIn(client, mailbox, message: 0)
            let (authenticator, enrolled) = try await client.enrollAuthenticator(idToken: try #require(first["idToken"] as? String), at: clock.now)
            let token = try #require(enrolled["idToken"] as? String)
            let unknown = try await client.post("/v2/accounts/mfaEnrollment:withdraw", json: #"{"idToken":"\#(token)","mfaEnrollmentId":"nope"}"#)
            #expect(Self.errorCode(unknown) == "MFA_ENROLLMENT_NOT_FOUND")
            let withdrawn = try await client.post(
                "/v2/accounts/mfaEnrollment:withdraw", json: #"{"idToken":"\#(token)","mfaEnrollmentId":"\#(authenticator.factorID)"}"#).json
            let firebase = try #require(try decodedClaims(of: withdrawn["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_second_factor"] == nil && firebase["second_factor_identifier"] == nil)
            let removedNotice = try await mailbox.waitForMessages(3)[2]
            #expect(removedNotice.contains("Subject: An authenticator was removed from your Latchkey account"))
            let plain = try await Self.signIn(client, mailbox, message: 3)
            #expect(plain["idToken"] is String && plain["mfaPendingCredential"] == nil && plain["mfaInfo"] == nil)

            _ = try await client.enrollAuthenticator(idToken: try #require(plain["idToken"] as? String), at: clock.now)
            let localID = try #require(first["localId"] as? String)
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            let removed = try await client.post("/v1/accounts:update", json: #"{"localId":"\#(localID)","mfa":{}}"#, key: nil, headers: admin)
            #expect(removed.status == .ok, "\(removed.text)")
            let looked = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(localID)"]}"#, key: nil, headers: admin).json
            #expect((looked["users"] as? [[String: Any]])?.first?["mfaInfo"] == nil)
            _ = try await mailbox.waitForMessages(6)
            #expect(mailbox.readableMessages()[5].contains("Subject: Every second step of signing in was removed from your Latchkey account"))
        }
    }

    /// Whoever registered an address first and put an authenticator on it loses the authenticator when the address's
    /// owner proves it by email link: the owner signs in without a challenge.
    @Test func theTakeoverRuleRemovesAPreRegisteredFactor() async throws {
        let clock = FixedClock()
        try await withApp(Self.enabled, clock: clock) { client, _, mailbox in
            let attacker = try await Self.signIn(client, mailbox, email: "mallory@example.com", message: 0)
            let (_, enrolled) = try await client.enrollAuthenticator(idToken: try #require(attacker["idToken"] as? String), at: clock.now)
            // A user cannot leave a proven address for an unproven one; an admin moves the account to the victim's address.
            let moved = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(try #require(attacker["localId"] as? String))","email":"victim@example.com"}"#,
                headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
            #expect(moved.status == .ok, "\(moved.text)")
            let victim = try await Self.signIn(client, mailbox, email: "victim@example.com", message: 2)
            #expect(victim["idToken"] is String && victim["mfaPendingCredential"] == nil)
            #expect(victim["localId"] as? String == attacker["localId"] as? String)
            let user = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(try #require(victim["idToken"] as? String))"}"#).json
            #expect((user["users"] as? [[String: Any]])?.first?["mfaInfo"] == nil)
            #expect(Self.errorCode(try await client.refresh(try #require(enrolled["refreshToken"] as? String))) == "TOKEN_EXPIRED")
        }
    }
}
