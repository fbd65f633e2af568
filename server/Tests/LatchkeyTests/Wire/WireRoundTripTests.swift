import Foundation
import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Testing

/// Every wire type as the server writes it (byte for byte: sorted keys, absent optionals left out, int64s as strings),
/// and read back both as a client reads it (Foundation's decoder) and as the server reads it (``JSONValueDecoder``).
@Suite struct WireRoundTripTests {
    func roundTrip<Value: Codable & Equatable>(_ value: Value, _ json: String) throws {
        let data = try JSONEncoder.api.encode(value)
        #expect(String(decoding: data, as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(Value.self, from: data) == value)
        #expect(try JSONValueDecoder.decode(Value.self, from: JSONParser.parse(Array(data))) == value)
    }

    static let user = UserInfo(
        localId: "u1", email: "a@example.com", emailVerified: true, displayName: "Alice", photoUrl: "https://example.com/a.png",
        passwordHash: "UkVEQUNURUQ=",
        providerUserInfo: [ProviderUserInfo(providerId: "password", federatedId: "a@example.com", email: "a@example.com", rawId: "a@example.com")],
        validSince: "1700000000", disabled: true, createdAt: "1700000000123", lastLoginAt: "1700000001000", emailLinkSignin: true)

    @Test func sendOobCodeRequest() throws {
        try roundTrip(
            SendOobCodeRequest(
                email: "a@example.com", continueUrl: "https://app.example.com/finish", canHandleCodeInApp: true, iOSBundleId: "com.example.ios",
                androidPackageName: "com.example.android", androidInstallApp: false, androidMinimumVersion: "12", returnOobLink: true),
            #"{"androidInstallApp":false,"androidMinimumVersion":"12","androidPackageName":"com.example.android","canHandleCodeInApp":true,"#
                + #""continueUrl":"https://app.example.com/finish","email":"a@example.com","iOSBundleId":"com.example.ios","#
                + #""requestType":"EMAIL_SIGNIN","returnOobLink":true}"#)
        try roundTrip(SendOobCodeRequest(email: nil, continueUrl: nil), #"{"requestType":"EMAIL_SIGNIN"}"#)
    }

    @Test func getOobConfirmationCodeResponse() throws {
        try roundTrip(
            GetOobConfirmationCodeResponse(email: "a@example.com"),
            #"{"email":"a@example.com","kind":"identitytoolkit#GetOobConfirmationCodeResponse"}"#)
        try roundTrip(
            GetOobConfirmationCodeResponse(email: "a@example.com", oobCode: "c", oobLink: "https://auth.example.com/__/auth/action?oobCode=c"),
            #"{"email":"a@example.com","kind":"identitytoolkit#GetOobConfirmationCodeResponse","oobCode":"c","#
                + #""oobLink":"https://auth.example.com/__/auth/action?oobCode=c"}"#)
    }

    @Test func emailLinkSigninRequest() throws {
        try roundTrip(EmailLinkSigninRequest(email: "a@example.com", oobCode: "c"), #"{"email":"a@example.com","oobCode":"c"}"#)
        try roundTrip(
            EmailLinkSigninRequest(email: "a@example.com", oobCode: "c", idToken: "t"), #"{"email":"a@example.com","idToken":"t","oobCode":"c"}"#)
    }

    @Test func emailLinkSigninResponse() throws {
        try roundTrip(
            EmailLinkSigninResponse(idToken: "i", refreshToken: "r", expiresIn: "3600", localId: "u1", email: "a@example.com", isNewUser: true),
            #"{"email":"a@example.com","expiresIn":"3600","idToken":"i","isNewUser":true,"kind":"identitytoolkit#EmailLinkSigninResponse","#
                + #""localId":"u1","refreshToken":"r"}"#)
    }

    @Test func signupNewUserRequest() throws {
        try roundTrip(SignupNewUserRequest(), #"{"returnSecureToken":true}"#)
        try roundTrip(
            SignupNewUserRequest(email: "a@example.com", password: "secret"),
            #"{"email":"a@example.com","password":"secret","returnSecureToken":true}"#)
    }

    @Test func signupNewUserResponse() throws {
        try roundTrip(
            SignupNewUserResponse(idToken: "i", refreshToken: "r", expiresIn: "3600", localId: "u1", email: nil),
            #"{"expiresIn":"3600","idToken":"i","kind":"identitytoolkit#SignupNewUserResponse","localId":"u1","refreshToken":"r"}"#)
    }

    @Test func verifyPasswordRequest() throws {
        try roundTrip(
            VerifyPasswordRequest(email: "a@example.com", password: "secret"),
            #"{"email":"a@example.com","password":"secret","returnSecureToken":true}"#)
    }

    @Test func verifyPasswordResponse() throws {
        try roundTrip(
            VerifyPasswordResponse(idToken: "i", refreshToken: "r", expiresIn: "3600", localId: "u1", email: "a@example.com"),
            #"{"email":"a@example.com","expiresIn":"3600","idToken":"i","kind":"identitytoolkit#VerifyPasswordResponse","localId":"u1","#
                + #""refreshToken":"r","registered":true}"#)
    }

    @Test func createAuthUriRequest() throws {
        try roundTrip(
            CreateAuthUriRequest(identifier: "a@example.com", continueUri: "https://app.example.com/"),
            #"{"continueUri":"https://app.example.com/","identifier":"a@example.com"}"#)
    }

    @Test func createAuthUriResponse() throws {
        try roundTrip(CreateAuthUriResponse(sessionId: "s"), #"{"kind":"identitytoolkit#CreateAuthUriResponse","sessionId":"s"}"#)
        try roundTrip(
            CreateAuthUriResponse(registered: true, allProviders: ["password"], signinMethods: ["emailLink"], sessionId: "s"),
            #"{"allProviders":["password"],"kind":"identitytoolkit#CreateAuthUriResponse","registered":true,"sessionId":"s","#
                + #""signinMethods":["emailLink"]}"#)
    }

    @Test func getAccountInfoRequest() throws {
        try roundTrip(GetAccountInfoRequest(idToken: "t"), #"{"idToken":"t"}"#)
        try roundTrip(GetAccountInfoRequest(localId: ["u1", "u2"], email: ["a@example.com"]), #"{"email":["a@example.com"],"localId":["u1","u2"]}"#)
    }

    @Test func getAccountInfoResponseWithUserInfoAndProviderUserInfo() throws {
        try roundTrip(
            GetAccountInfoResponse(users: [Self.user]),
            #"{"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"createdAt":"1700000000123","disabled":true,"displayName":"Alice","#
                + #""email":"a@example.com","emailLinkSignin":true,"emailVerified":true,"lastLoginAt":"1700000001000","localId":"u1","#
                + #""passwordHash":"UkVEQUNURUQ=","photoUrl":"https://example.com/a.png","providerUserInfo":[{"email":"a@example.com","#
                + #""federatedId":"a@example.com","providerId":"password","rawId":"a@example.com"}],"validSince":"1700000000"}]}"#)
        try roundTrip(
            UserInfo(localId: "u2", emailVerified: false, providerUserInfo: [], validSince: "0", createdAt: "0"),
            #"{"createdAt":"0","emailVerified":false,"localId":"u2","providerUserInfo":[],"validSince":"0"}"#)
    }

    @Test func setAccountInfoRequest() throws {
        try roundTrip(
            SetAccountInfoRequest(
                idToken: "t", email: "b@example.com", password: "secret", displayName: "Bob", photoUrl: "https://example.com/b.png",
                deleteAttribute: ["PHOTO_URL"], deleteProvider: ["password"], validSince: 1_700_000_000, returnSecureToken: true),
            #"{"deleteAttribute":["PHOTO_URL"],"deleteProvider":["password"],"displayName":"Bob","email":"b@example.com","idToken":"t","#
                + #""password":"secret","photoUrl":"https://example.com/b.png","returnSecureToken":true,"validSince":1700000000}"#)
        try roundTrip(
            SetAccountInfoRequest(localId: "u1", disableUser: true, emailVerified: false),
            #"{"disableUser":true,"emailVerified":false,"localId":"u1"}"#)
    }

    @Test func setAccountInfoResponse() throws {
        try roundTrip(
            SetAccountInfoResponse(localId: "u1", emailVerified: false, providerUserInfo: []),
            #"{"emailVerified":false,"kind":"identitytoolkit#SetAccountInfoResponse","localId":"u1","providerUserInfo":[]}"#)
        try roundTrip(
            SetAccountInfoResponse(
                localId: "u1", email: "a@example.com", emailVerified: true, passwordHash: "UkVEQUNURUQ=",
                providerUserInfo: Self.user.providerUserInfo, idToken: "i", refreshToken: "r", expiresIn: "3600"),
            #"{"email":"a@example.com","emailVerified":true,"expiresIn":"3600","idToken":"i","kind":"identitytoolkit#SetAccountInfoResponse","#
                + #""localId":"u1","passwordHash":"UkVEQUNURUQ=","providerUserInfo":[{"email":"a@example.com","federatedId":"a@example.com","#
                + #""providerId":"password","rawId":"a@example.com"}],"refreshToken":"r"}"#)
    }

    @Test func deleteAccountRequestAndResponse() throws {
        try roundTrip(DeleteAccountRequest(idToken: "t"), #"{"idToken":"t"}"#)
        try roundTrip(DeleteAccountRequest(localId: "u1"), #"{"localId":"u1"}"#)
        try roundTrip(DeleteAccountResponse(), #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
    }

    @Test func createAccountRequest() throws {
        try roundTrip(
            CreateAccountRequest(
                localId: "carol-42", email: "c@example.com", password: "secret", emailVerified: true, displayName: "Carol",
                photoUrl: "https://example.com/c.png", disabled: false),
            #"{"disabled":false,"displayName":"Carol","email":"c@example.com","emailVerified":true,"localId":"carol-42","password":"secret","#
                + #""photoUrl":"https://example.com/c.png"}"#)
    }

    @Test func grantTokenRequestAndResponse() throws {
        try roundTrip(GrantTokenRequest(refreshToken: "r"), #"{"grant_type":"refresh_token","refresh_token":"r"}"#)
        try roundTrip(
            GrantTokenResponse(idToken: "i", refreshToken: "r", expiresIn: "3600", userId: "u1", projectId: "p"),
            #"{"access_token":"i","expires_in":"3600","id_token":"i","project_id":"p","refresh_token":"r","token_type":"Bearer","user_id":"u1"}"#)
    }

    @Test func errorEnvelope() throws {
        try roundTrip(
            ErrorEnvelope(error: .init(code: 400, message: "INVALID_OOB_CODE", reason: "invalid")),
            #"{"error":{"code":400,"errors":[{"domain":"global","message":"INVALID_OOB_CODE","reason":"invalid"}],"message":"INVALID_OOB_CODE"}}"#)
        try roundTrip(
            ErrorEnvelope(
                error: .init(
                    code: 400, message: "API key not valid. Please pass a valid API key.", reason: "keyInvalid", status: "INVALID_ARGUMENT",
                    details: [.init(reason: "API_KEY_INVALID", metadata: ["service": "identitytoolkit.googleapis.com"])])),
            #"{"error":{"code":400,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"googleapis.com","#
                + #""metadata":{"service":"identitytoolkit.googleapis.com"},"reason":"API_KEY_INVALID"}],"errors":[{"domain":"global","#
                + #""message":"API key not valid. Please pass a valid API key.","reason":"keyInvalid"}],"#
                + #""message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#)
    }

    @Test func openIDConfiguration() throws {
        try roundTrip(
            OpenIDConfiguration(
                issuer: "https://auth.example.com", jwksURI: "https://auth.example.com/.well-known/jwks.json",
                idTokenSigningAlgValuesSupported: ["RS256"]),
            #"{"id_token_signing_alg_values_supported":["RS256"],"issuer":"https://auth.example.com","#
                + #""jwks_uri":"https://auth.example.com/.well-known/jwks.json","response_types_supported":["id_token"],"#
                + #""subject_types_supported":["public"]}"#)
    }

    @Test func theRequestTypeIsWrittenByName() throws {
        #expect(OobRequestType.emailSignIn.number == 6)
        try roundTrip(OobRequestType.emailSignIn, #""EMAIL_SIGNIN""#)
        try roundTrip(GrantType.refreshToken, #""refresh_token""#)
    }

    @Test func batchDeleteAccounts() throws {
        try roundTrip(BatchDeleteAccountsRequest(localIds: ["a", "b"], force: true), #"{"force":true,"localIds":["a","b"]}"#)
        try roundTrip(BatchDeleteAccountsResponse(errors: nil), "{}")
        try roundTrip(
            BatchDeleteAccountsResponse(
                errors: [.init(index: 1, localId: "b", message: "NOT_DISABLED : Disable the account before batch deletion.")]),
            #"{"errors":[{"index":1,"localId":"b","message":"NOT_DISABLED : Disable the account before batch deletion."}]}"#)
    }

    @Test func getRecaptchaConfigResponse() throws {
        try roundTrip(
            GetRecaptchaConfigResponse(
                recaptchaKey: "projects/p/keys/k", recaptchaEnforcementState: [.init(provider: "EMAIL_PASSWORD_PROVIDER", enforcementState: "OFF")],
                useSmsBotScore: false, useSmsTollFraudProtection: false),
            #"{"recaptchaEnforcementState":[{"enforcementState":"OFF","provider":"EMAIL_PASSWORD_PROVIDER"}],"recaptchaKey":"projects/p/keys/k","#
                + #""useSmsBotScore":false,"useSmsTollFraudProtection":false}"#)
    }

    @Test func verifyClientRequestAndResponse() throws {
        try roundTrip(VerifyClientRequest(appToken: "0A1B", isSandbox: true), #"{"appToken":"0A1B","isSandbox":true}"#)
        try roundTrip(VerifyClientResponse(receipt: "r", suggestedTimeout: "10"), #"{"receipt":"r","suggestedTimeout":"10"}"#)
    }

    @Test func getRecaptchaParamResponse() throws {
        try roundTrip(
            GetRecaptchaParamResponse(recaptchaSiteKey: "site-key"),
            #"{"kind":"identitytoolkit#GetRecaptchaParamResponse","recaptchaSiteKey":"site-key"}"#)
    }

    @Test func getPasswordPolicyResponse() throws {
        try roundTrip(
            GetPasswordPolicyResponse(
                customStrengthOptions: .init(minPasswordLength: 8, maxPasswordLength: 64, containsUppercaseCharacter: true),
                allowedNonAlphanumericCharacters: ["!", "#"], enforcementState: "ENFORCE", forceUpgradeOnSignin: false, schemaVersion: 1),
            ##"{"allowedNonAlphanumericCharacters":["!","#"],"customStrengthOptions":{"containsUppercaseCharacter":true,"##
                + #""maxPasswordLength":64,"minPasswordLength":8},"enforcementState":"ENFORCE","forceUpgradeOnSignin":false,"schemaVersion":1}"#)
    }
}
