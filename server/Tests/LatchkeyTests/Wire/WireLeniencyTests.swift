import Latchkey
import LatchkeyDomain
import LatchkeyWire
import Testing

/// Where the wire types read a body leniently, and where absent and null differ.
@Suite struct WireLeniencyTests {
    func decode<Body: Decodable>(_ type: Body.Type, _ json: String) throws -> Body {
        try JSONValueDecoder.decode(type, from: try JSONParser.parse(Array(json.utf8)))
    }

    @Test(arguments: [#""EMAIL_SIGNIN""#, "6", #""6""#])
    func theRequestTypeIsReadByNameOrNumber(_ requestType: String) throws {
        let request = try decode(SendOobCodeRequest.self, #"{"request_type":\#(requestType)}"#)
        #expect(request.requestType == .emailSignIn)
    }

    @Test func flagsAndTheMinimumVersionOfTheWrongTypeAreIgnored() throws {
        let request = try decode(
            SendOobCodeRequest.self,
            #"{"requestType":6,"canHandleCodeInApp":"yes","androidInstallApp":1,"returnOobLink":"true","androidMinimumVersion":12}"#)
        #expect(request.canHandleCodeInApp == nil && request.androidInstallApp == nil && request.returnOobLink == nil)
        #expect(request.androidMinimumVersion == nil)
    }

    @Test func theMinimumVersionIsAlsoReadUnderTheJSSDKsName() throws {
        #expect(try decode(SendOobCodeRequest.self, #"{"requestType":6,"androidMinimumVersionCode":"12"}"#).androidMinimumVersion == "12")
        // The first name present wins, even when null.
        let both = try decode(SendOobCodeRequest.self, #"{"requestType":6,"androidMinimumVersion":null,"androidMinimumVersionCode":"12"}"#)
        #expect(both.androidMinimumVersion == nil)
    }

    /// Absent leaves a sign-up anonymous; null, like an empty string, asks for a password account and is refused later.
    @Test func aSignUpsNullFieldIsPresentAndEmpty() throws {
        #expect(try decode(SignupNewUserRequest.self, #"{}"#) == SignupNewUserRequest(returnSecureToken: nil))
        #expect(try decode(SignupNewUserRequest.self, #"{"email":null}"#).email == "")
        #expect(try decode(SignupNewUserRequest.self, #"{"password":null}"#).password == "")
    }

    /// An admin's `idToken: null` is a lookup by token (refused as missing), not a lookup by id.
    @Test func aNullIDTokenIsPresentAndEmpty() throws {
        #expect(try decode(GetAccountInfoRequest.self, #"{"idToken":null}"#).idToken == "")
        #expect(try decode(SetAccountInfoRequest.self, #"{"id_token":null}"#).idToken == "")
        #expect(try decode(DeleteAccountRequest.self, #"{"idToken":null}"#).idToken == "")
        #expect(try decode(GetAccountInfoRequest.self, #"{}"#).idToken == nil)
    }

    @Test func optionalStringsTakeNullAsAbsent() throws {
        let update = try decode(SetAccountInfoRequest.self, #"{"password":null,"displayName":null}"#)
        #expect(update.password == nil && update.displayName == nil && update.email == nil)
        #expect(try decode(CreateAccountRequest.self, #"{"email":null}"#).email == "")
        #expect(try decode(CreateAccountRequest.self, #"{"password":null}"#).password == nil)
    }

    @Test(arguments: [
        (#""a""#, ["a"]), (#"["a",1,null,"b",["c"]]"#, ["a", "b"]), ("[]", []), ("5", nil), ("{}", nil), ("null", nil),
    ] as [(String, [String]?)])
    func lookupsTakeAStringOrAListOfStrings(_ json: String, _ expected: [String]?) throws {
        let request = try decode(GetAccountInfoRequest.self, #"{"localId":\#(json),"email":\#(json)}"#)
        #expect(request.localId == expected && request.email == expected)
    }

    static let validSinces: [(json: String, expected: Int64?)] = [
        ("6", 6), (#""6""#, 6), ("-42", -42), (#""9223372036854775807""#, Int64.max), ("9223372036854775808", nil), ("6.5", nil),
        ("6.0", nil), ("1e2", nil), (#""x""#, nil), (#""""#, nil), (#""+6""#, nil), (#"" 6""#, nil), (#""06""#, nil), ("true", nil),
        ("null", nil),
    ]

    @Test("validSince is an int64 as a number or a decimal string; anything else is ignored", arguments: validSinces)
    func readsValidSince(_ json: String, _ expected: Int64?) throws {
        #expect(try decode(SetAccountInfoRequest.self, #"{"validSince":\#(json)}"#).validSince == expected)
    }

    @Test func updatesReadListsFlagsAndTheAdminsLocalIDLeniently() throws {
        let update = try decode(
            SetAccountInfoRequest.self,
            #"{"localId":5,"deleteAttribute":"DISPLAY_NAME","deleteProvider":7,"disableUser":"true","emailVerified":1,"returnSecureToken":"y"}"#)
        #expect(update == SetAccountInfoRequest(deleteAttribute: ["DISPLAY_NAME"]))
        #expect(try decode(DeleteAccountRequest.self, #"{"localId":["a"]}"#).localId == nil)
        #expect(try decode(CreateAccountRequest.self, #"{"disabled":"yes","emailVerified":0}"#) == CreateAccountRequest())
    }

    @Test func createAuthUriIgnoresTheContinueURIWhateverItsType() throws {
        #expect(try decode(CreateAuthUriRequest.self, #"{"identifier":"a@example.com","continueUri":5}"#).continueUri == nil)
    }

    @Test func theTokenRequestTakesSnakeOrCamelCase() throws {
        let snake = try decode(GrantTokenRequest.self, #"{"grant_type":"refresh_token","refresh_token":"r"}"#)
        let camel = try decode(GrantTokenRequest.self, #"{"grantType":"refresh_token","refreshToken":"r"}"#)
        #expect(snake == GrantTokenRequest(refreshToken: "r") && camel == snake)
    }
}
