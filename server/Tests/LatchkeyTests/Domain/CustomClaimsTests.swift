import Latchkey
import LatchkeyDomain
import Testing

/// Custom claims as Firebase limits them, and the names Latchkey's tokens keep for themselves.
@Suite struct CustomClaimsTests {
    @Test func anObjectOfAtMost1000BytesIsKeptAsGiven() throws {
        let claims = try #require(try CustomClaims.parse(#"{"role": "editor", "n": 1.5, "tags": ["a"], "nested": {"x": null}}"#))
        #expect(claims.json == #"{"role": "editor", "n": 1.5, "tags": ["a"], "nested": {"x": null}}"#)
        #expect(try CustomClaims.parse("{}") == nil)
        #expect(try CustomClaims.parse(#"{"a":""# + String(repeating: "x", count: 992) + #""}"#) != nil)
    }

    @Test(arguments: [
        (#"{"a":""# + String(repeating: "x", count: 993) + #""}"#, SignInError.claimsTooLarge),
        ("[1]", .invalidClaims), ("not json", .invalidClaims), (#"{"a":1e400}"#, .invalidClaims), (#"{"a":1,"a":2}"#, .invalidClaims),
        (#"{"sub":"x"}"#, .forbiddenClaim("sub")), (#"{"sid":"x"}"#, .forbiddenClaim("sid")),
        (#"{"email_verified":true,"firebase":{}}"#, .forbiddenClaim("email_verified")),
    ])
    func othersAreRefused(_ json: String, _ refusal: SignInError) {
        #expect(throws: refusal) { try CustomClaims.parse(json) }
    }
}
