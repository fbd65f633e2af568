import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The project's password policy (`passwordPolicy`): `GET /v2/passwordPolicy` answers it as Firebase does, and with
/// `ENFORCE` every place a password is set (sign-up, a change, a reset, an admin's creation) refuses a password that
/// misses a requirement, listing them as Firebase words them; with `forceUpgradeOnSignin` a sign-in with such a password
/// too.
@Suite(.outsideProcesses) struct PasswordPolicyTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
    static var enforced: [String: Any] {
        [
            "passwordPolicy.enforcementState": "ENFORCE", "passwordPolicy.constraints.minLength": 8,
            "passwordPolicy.constraints.requireUppercase": true, "passwordPolicy.constraints.requireNumeric": true,
            "passwordPolicy.constraints.requireNonAlphanumeric": true, "rateLimits.sendPerEmail": [] as [Any],
        ]
    }
    static let missingAll =
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character, "
        + "Password must contain a numeric character, Password must contain a non-alphanumeric character]"
    static let tooShort =
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 characters, "
        + "Password must contain an upper case character, Password must contain a numeric character]"
    /// The example of github.com/firebase/scrypt's README, whose password (`user1password`) has no upper case character
    /// and no non-alphanumeric one: an account as an import from Firebase brings it, whatever the policy.
    static let importedWeakPassword = """
        {"hashAlgorithm":"SCRYPT","signerKey":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",\
        "saltSeparator":"Bw==","rounds":8,"memoryCost":14,"users":[{"localId":"ida","email":"ida@example.com",\
        "passwordHash":"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==","salt":"42xEC+ixf3L2lw=="}]}
        """

    static func importWeakPassword(_ client: any TestClientProtocol) async throws {
        let imported = try await client.post("/v1/accounts:batchCreate", json: importedWeakPassword, key: nil, headers: admin)
        #expect(try imported.status == .ok && imported.json["error"] == nil, "\(imported.text)")
    }

    static func policy(_ client: any TestClientProtocol, path: String = "/v2/passwordPolicy") async throws -> [String: Any] {
        let answer = try await client.execute(uri: "\(path)?key=\(TestWorkspace.apiKey)", method: .get)
        #expect(answer.status == .ok, "\(answer.text)")
        return try answer.json
    }

    static func signUp(_ client: any TestClientProtocol, _ email: String, _ password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signUp", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    @Test func withoutAPolicyNothingChanges() async throws {
        try await withApp { client, _, _ in
            let policy = try await Self.policy(client)
            #expect(policy["enforcementState"] as? String == "OFF" && policy["forceUpgradeOnSignin"] as? Bool == false)
            #expect(policy["schemaVersion"] as? Int == 1)
            let options = try #require(policy["customStrengthOptions"] as? [String: Any])
            #expect(options["minPasswordLength"] as? Int == 6 && options["maxPasswordLength"] as? Int == 4096)
            #expect(try await Self.signUp(client, "al@example.com", "abcdef").status == .ok)
            let short = try await Self.signUp(client, "bo@example.com", "abcde")
            #expect(short.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
        }
    }

    @Test(arguments: [
        "/v2/passwordPolicy", "/v2/projects/test-project/passwordPolicy", "/identitytoolkit.googleapis.com/v2/passwordPolicy",
        "/identitytoolkit.googleapis.com/v2/projects/test-project/passwordPolicy",
    ])
    func thePolicyIsAnsweredAsFirebaseAnswersIt(_ path: String) async throws {
        try await withApp(Self.enforced) { client, _, _ in
            let policy = try await Self.policy(client, path: path)
            #expect(policy["enforcementState"] as? String == "ENFORCE" && policy["forceUpgradeOnSignin"] as? Bool == false)
            #expect(policy["schemaVersion"] as? Int == 1)
            let options = try #require(policy["customStrengthOptions"] as? [String: Any])
            #expect(options["minPasswordLength"] as? Int == 8 && options["maxPasswordLength"] as? Int == 4096)
            #expect(options["containsUppercaseCharacter"] as? Bool == true && options["containsNumericCharacter"] as? Bool == true)
            #expect(options["containsNonAlphanumericCharacter"] as? Bool == true && options["containsLowercaseCharacter"] as? Bool == false)
            let allowed = try #require(policy["allowedNonAlphanumericCharacters"] as? [String])
            #expect(allowed.joined() == #"^$*.[]{}()?"!@#%&/\,><':;|_~`"#)
        }
    }

    @Test(arguments: StoreKind.all) func anEnforcedPolicyRefusesAWeakPasswordWhereverOneIsSet(_ store: StoreKind) async throws {
        try await withApp(Self.enforced, store: store) { client, _, mailbox in
            #expect(try await Self.signUp(client, "al@example.com", "password").errorMessage == Self.missingAll)
            #expect(try await Self.signUp(client, "al@example.com", "abc!").errorMessage == Self.tooShort)
            let session = try await Self.signUp(client, "al@example.com", "Str0ng!pw")
            #expect(session.status == .ok, "\(session.text)")
            let idToken = try #require(try session.json["idToken"] as? String)
            let localID = try #require(try session.json["localId"] as? String)

            let change = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","password":"password"}"#)
            #expect(change.errorMessage == Self.missingAll)
            let byAdmin = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(localID)","password":"password"}"#, key: nil, headers: Self.admin)
            #expect(byAdmin.errorMessage == Self.missingAll)
            let created = try await client.post(
                "/v1/projects/test-project/accounts", json: #"{"email":"cy@example.com","password":"password"}"#, key: nil, headers: Self.admin)
            #expect(created.errorMessage == Self.missingAll)
            #expect(try await client.accountIDs() == [localID])

            let ask = #"{"requestType":"PASSWORD_RESET","email":"al@example.com"}"#
            #expect(try await client.post("/v1/accounts:sendOobCode", json: ask).status == .ok)
            let code = try await mailbox.code()
            let weak = try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(code)","newPassword":"password"}"#)
            #expect(weak.errorMessage == Self.missingAll)
            let strong = try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(code)","newPassword":"N3w!password"}"#)
            #expect(strong.status == .ok, "\(strong.text)")
            let signIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"al@example.com","password":"N3w!password"}"#)
            #expect(signIn.status == .ok)
        }
    }

    @Test(arguments: StoreKind.all) func aSignInWithANonCompliantPasswordIsRefusedOnlyWithForceUpgrade(_ store: StoreKind) async throws {
        let signIn = #"{"email":"ida@example.com","password":"user1password"}"#
        let wrong = #"{"email":"ida@example.com","password":"user1passwore"}"#
        try await withApp(Self.enforced, store: store) { client, _, _ in
            try await Self.importWeakPassword(client)
            #expect(try await client.post("/v1/accounts:signInWithPassword", json: signIn).status == .ok)
        }
        try await withApp(Self.enforced.merging(["passwordPolicy.forceUpgradeOnSignin": true]) { $1 }, store: store) { client, _, _ in
            try await Self.importWeakPassword(client)
            #expect(try await Self.policy(client)["forceUpgradeOnSignin"] as? Bool == true)
            // A wrong password is refused as ever: the policy speaks only of the right one.
            #expect(try await client.post("/v1/accounts:signInWithPassword", json: wrong).errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let refused = try await client.post("/v1/accounts:signInWithPassword", json: signIn)
            #expect(
                refused.errorMessage
                    == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character, "
                    + "Password must contain a non-alphanumeric character]")
        }
    }
}
