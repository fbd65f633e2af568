import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Testing

/// A field of the wrong JSON type is refused with that field's own Identity Toolkit code, as the controllers'
/// hand-written readers did; the request and grant types also say when they are missing.
@Suite struct RequestFieldRefusalsTests {
    /// The code a body is refused with while decoding, or nil if it decodes.
    static func refusal<Body: RefusedFields>(_ type: Body.Type, _ json: String) throws -> String? {
        do {
            _ = try RequestBody.decode(type, from: try JSONParser.parse(Array(json.utf8)))
            return nil
        } catch let error as SignInError {
            return error.code
        }
    }

    @Test(arguments: [
        (#"{}"#, "MISSING_REQ_TYPE"),
        (#"{"requestType":null,"email":5}"#, "MISSING_REQ_TYPE"),
        // The request type decides what the rest means, so it is checked first, as it always was.
        (#"{"email":5,"continueUrl":true}"#, "MISSING_REQ_TYPE"),
        (#"{"requestType":"OLD_EMAIL_AGREE","email":5}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":8}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":6.0}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":"06"}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":""}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":"email_signin"}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":true}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":["EMAIL_SIGNIN"]}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":6,"email":42}"#, "INVALID_EMAIL"),
        (#"{"requestType":6,"email":{"address":"a@example.com"}}"#, "INVALID_EMAIL"),
        (#"{"requestType":6,"continueUrl":42}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":6,"iOSBundleId":7}"#, "INVALID_IOS_BUNDLE_ID"),
        (#"{"requestType":6,"ios_bundle_id":7}"#, "INVALID_IOS_BUNDLE_ID"),
        (#"{"requestType":6,"androidPackageName":false}"#, "INVALID_ANDROID_PACKAGE_NAME"),
    ])
    func sendOobCode(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(SendOobCodeRequest.self, json) == code)
    }

    @Test(arguments: [
        (#"{"email":1}"#, "INVALID_EMAIL"), (#"{"oobCode":1}"#, "INVALID_OOB_CODE"), (#"{"idToken":{}}"#, "INVALID_ID_TOKEN"),
    ])
    func signInWithEmailLink(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(EmailLinkSigninRequest.self, json) == code)
    }

    @Test(arguments: [(#"{"email":1}"#, "INVALID_EMAIL"), (#"{"email":"a@example.com","password":123456}"#, "MISSING_PASSWORD")])
    func signUp(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(SignupNewUserRequest.self, json) == code)
    }

    @Test(arguments: [(#"{"email":[]}"#, "INVALID_EMAIL"), (#"{"email":"a@example.com","password":123456}"#, "INVALID_PASSWORD")])
    func signInWithPassword(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(VerifyPasswordRequest.self, json) == code)
    }

    @Test func createAuthUri() throws {
        #expect(try Self.refusal(CreateAuthUriRequest.self, #"{"identifier":1}"#) == "INVALID_IDENTIFIER")
    }

    @Test func lookupAndDelete() throws {
        #expect(try Self.refusal(GetAccountInfoRequest.self, #"{"idToken":1}"#) == "INVALID_ID_TOKEN")
        #expect(try Self.refusal(DeleteAccountRequest.self, #"{"idToken":false}"#) == "INVALID_ID_TOKEN")
    }

    @Test(arguments: [
        (#"{"idToken":1}"#, "INVALID_ID_TOKEN"), (#"{"email":1}"#, "INVALID_EMAIL"), (#"{"password":1}"#, "WEAK_PASSWORD"),
        (#"{"displayName":1}"#, "INVALID_PROFILE_ATTRIBUTE"), (#"{"photoUrl":[]}"#, "INVALID_PROFILE_ATTRIBUTE"),
    ])
    func update(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(SetAccountInfoRequest.self, json) == code)
    }

    @Test(arguments: [
        (#"{"localId":5}"#, "INVALID_LOCAL_ID"), (#"{"email":1}"#, "INVALID_EMAIL"), (#"{"password":1}"#, "WEAK_PASSWORD"),
        (#"{"displayName":true}"#, "INVALID_PROFILE_ATTRIBUTE"), (#"{"photoUrl":{}}"#, "INVALID_PROFILE_ATTRIBUTE"),
    ])
    func createAccount(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(CreateAccountRequest.self, json) == code)
    }

    @Test(arguments: [
        (#"{}"#, "MISSING_GRANT_TYPE"), (#"{"grant_type":null}"#, "MISSING_GRANT_TYPE"), (#"{"grant_type":""}"#, "MISSING_GRANT_TYPE"),
        (#"{"grant_type":"authorization_code"}"#, "INVALID_GRANT_TYPE"), (#"{"grantType":5}"#, "INVALID_GRANT_TYPE"),
        // The grant type is checked first, as it always was.
        (#"{"grant_type":"x","refresh_token":5}"#, "INVALID_GRANT_TYPE"),
        (#"{"grant_type":"refresh_token","refresh_token":5}"#, "INVALID_REFRESH_TOKEN"),
    ])
    func token(_ json: String, _ code: String) throws {
        #expect(try Self.refusal(GrantTokenRequest.self, json) == code)
    }

    /// A field the mapping does not name falls back to Google's generic answer rather than a wrong code.
    @Test func anUnnamedFieldIsAnInvalidJSONPayload() throws {
        let refusal = EmailLinkSigninRequest.refusal(
            for: .typeMismatch(String.self, .init(codingPath: [StringKey("tenant")], debugDescription: "")))
        #expect((refusal as? APIError)?.message == "Invalid JSON payload received. Invalid value at 'tenant'.")
    }
}

/// A coding key named at run time.
private struct StringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
