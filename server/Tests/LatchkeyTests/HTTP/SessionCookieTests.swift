import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// `projects/{projectId}:createSessionCookie` (the Admin SDKs' `create_session_cookie`): an admin trades a signed-in
/// user's ID token for a session cookie, a JWT with the token's claims under Firebase's session-cookie issuer, signed
/// with a published key, for as long as asked within five minutes to fourteen days; a token that no longer counts gets
/// none.
@Suite(.outsideProcesses) struct SessionCookieTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
    static let path = "/v1/projects/test-project:createSessionCookie"

    /// A password account signed in, with custom claims in its ID token (set by the admin, then a refresh).
    static func signedIn(_ client: any TestClientProtocol) async throws -> (localID: String, idToken: String) {
        let signUp = try await client.post("/v1/accounts:signUp", json: #"{"email":"dana@example.com","password":"dana's password"}"#)
        let localID = try #require(try signUp.json["localId"] as? String, "\(signUp.text)")
        let claims = #"{\"role\":\"editor\",\"level\":3}"#
        let update = try await client.post(
            "/v1/accounts:update", json: #"{"localId":"\#(localID)","customAttributes":"\#(claims)"}"#, key: nil, headers: admin)
        #expect(update.status == .ok, "\(update.text)")
        let refreshed = try await client.refresh(try #require(try signUp.json["refreshToken"] as? String))
        return (localID, try #require(try refreshed.json["id_token"] as? String, "\(refreshed.text)"))
    }

    static func createCookie(
        _ client: any TestClientProtocol, _ body: String, path: String = path, headers: HTTPFields = admin
    ) async throws -> TestResponse {
        try await client.post(path, json: body, key: nil, headers: headers)
    }

    @Test(arguments: StoreKind.all, [path, "/identitytoolkit.googleapis.com" + path])
    func theCookieCarriesTheIDTokensClaimsUnderTheSessionIssuer(_ store: StoreKind, _ path: String) async throws {
        let clock = FixedClock()
        try await withApp(store: store, clock: clock) { client, _, _ in
            let (localID, idToken) = try await Self.signedIn(client)
            clock.advance(by: 90)
            let answer = try await Self.createCookie(client, #"{"idToken":"\#(idToken)","validDuration":"3600"}"#, path: path)
            #expect(answer.status == .ok, "\(answer.text)")
            let cookie = try #require(try answer.json["sessionCookie"] as? String)
            #expect(try Set(answer.json.keys) == ["sessionCookie"])

            let claims = try decodedClaims(of: cookie)
            let token = try decodedClaims(of: idToken)
            #expect(claims["iss"] as? String == "https://session.firebase.google.com/test-project")
            #expect(claims["aud"] as? String == "test-project")
            #expect(claims["sub"] as? String == localID && claims["user_id"] as? String == localID)
            let now = Int(clock.now.timeIntervalSince1970)
            #expect(claims["iat"] as? Int == now && claims["exp"] as? Int == now + 3600)
            #expect(claims["auth_time"] as? Int == token["auth_time"] as? Int)
            #expect(claims["email"] as? String == "dana@example.com" && claims["email_verified"] as? Bool == false)
            #expect(claims["role"] as? String == "editor" && claims["level"] as? Int == 3)
            let firebase = try #require(claims["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "password")
            #expect(NSDictionary(dictionary: firebase).isEqual(to: try #require(token["firebase"] as? [String: Any])))
            // Signed like an ID token, by a key the JWKS publishes.
            #expect(try await client.publishedKeyIDs().contains(try keyID(of: cookie)))
            #expect(try jwsHeader(of: cookie)["alg"] as? String == "RS256")
        }
    }

    /// Custom claims of every JSON kind ride from the ID token into the cookie unchanged: fractions, the largest
    /// unsigned integer, null, nesting.
    @Test func everyKindOfCustomClaimRidesIntoTheCookie() async throws {
        try await withApp { client, _, _ in
            let (localID, _) = try await Self.signedIn(client)
            let claims = #"{\"ratio\":1.5,\"big\":18446744073709551615,\"none\":null,\"nested\":[true,{\"team\":\"a\"}],\"neg\":-7}"#
            let update = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(localID)","customAttributes":"\#(claims)"}"#, key: nil, headers: Self.admin)
            #expect(update.status == .ok, "\(update.text)")
            let (_, idToken) = try await Self.signedInAgain(client)
            let created = try await Self.createCookie(client, #"{"idToken":"\#(idToken)","validDuration":600}"#)
            let cookie = try decodedClaims(of: try created.json["sessionCookie"])
            let token = try decodedClaims(of: idToken)
            for name in ["ratio", "big", "none", "nested", "neg"] {
                let (inCookie, inToken) = (try #require(cookie[name], "\(name)"), try #require(token[name], "\(name)"))
                #expect(NSArray(array: [inCookie]).isEqual(to: [inToken]), "\(name): \(inCookie) != \(inToken)")
            }
            #expect(cookie["neg"] as? Int == -7 && cookie["ratio"] as? Double == 1.5 && cookie["none"] is NSNull)
        }
    }

    /// A cookie is not an ID token: this server's own verifier refuses one for the other (the issuer differs).
    @Test func aSessionCookieIsNoIDToken() async throws {
        try await withApp { client, _, _ in
            let (_, idToken) = try await Self.signedIn(client)
            let created = try await Self.createCookie(client, #"{"idToken":"\#(idToken)","validDuration":600}"#)
            let cookie = try #require(try created.json["sessionCookie"] as? String)
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(cookie)"}"#).errorMessage == "INVALID_ID_TOKEN")
            let asToken = try await Self.createCookie(client, #"{"idToken":"\#(cookie)","validDuration":600}"#)
            #expect(asToken.errorMessage == "INVALID_ID_TOKEN")
        }
    }

    /// Five minutes to fourteen days, inclusive, as a number or a decimal string; absent or 0 is fourteen days, as in
    /// firebase-tools' emulator.
    @Test(arguments: [
        (#""validDuration":299"#, nil), (#""validDuration":"1209601""#, nil), (#""validDuration":-300"#, nil),
        (#""validDuration":300"#, 300), (#""validDuration":"1209600""#, 1_209_600), (#""validDuration":0"#, 1_209_600), (#""x":1"#, 1_209_600),
    ] as [(String, Int?)])
    func theDurationIsFiveMinutesToFourteenDays(_ duration: String, _ lifetime: Int?) async throws {
        let clock = FixedClock()
        try await withApp(clock: clock) { client, _, _ in
            let (_, idToken) = try await Self.signedIn(client)
            let answer = try await Self.createCookie(client, #"{"idToken":"\#(idToken)",\#(duration)}"#)
            guard let lifetime else {
                #expect(answer.status == .badRequest && answer.errorMessage == "INVALID_DURATION", "\(answer.text)")
                return
            }
            let claims = try decodedClaims(of: try answer.json["sessionCookie"])
            #expect(claims["exp"] as? Int == Int(clock.now.timeIntervalSince1970) + lifetime)
        }
    }

    @Test func aMissingMalformedOrWronglyTypedRequestIsRefused() async throws {
        try await withApp { client, _, _ in
            #expect(try await Self.createCookie(client, #"{"validDuration":600}"#).errorMessage == "MISSING_ID_TOKEN")
            #expect(try await Self.createCookie(client, #"{"idToken":"","validDuration":600}"#).errorMessage == "MISSING_ID_TOKEN")
            #expect(try await Self.createCookie(client, #"{"idToken":"not.a.token","validDuration":600}"#).errorMessage == "INVALID_ID_TOKEN")
            #expect(try await Self.createCookie(client, #"{"idToken":42}"#).errorMessage == "INVALID_ID_TOKEN")
            let fraction = try await Self.createCookie(client, #"{"idToken":"x","validDuration":600.5}"#)
            #expect(fraction.status == .badRequest && fraction.errorMessage?.hasPrefix("Invalid JSON payload") == true, "\(fraction.text)")
        }
    }

    /// A token revoked (by `validSince`), of a disabled account or of a deleted one gets no cookie, on either store.
    @Test(arguments: StoreKind.all) func aTokenThatNoLongerCountsGetsNoCookie(_ store: StoreKind) async throws {
        let clock = FixedClock()
        try await withApp(store: store, clock: clock) { client, _, _ in
            let (localID, idToken) = try await Self.signedIn(client)
            let body = #"{"idToken":"\#(idToken)","validDuration":600}"#
            let update = { (fields: String) in
                let answer = try await client.post(
                    "/v1/accounts:update", json: #"{"localId":"\#(localID)",\#(fields)}"#, key: nil, headers: Self.admin)
                #expect(answer.status == .ok, "\(answer.text)")
            }
            try await update(#""disableUser":true"#)
            #expect(try await Self.createCookie(client, body).errorMessage == "USER_DISABLED")
            try await update(#""disableUser":false"#)
            #expect(try await Self.createCookie(client, body).status == .ok)

            clock.advance(by: 1)
            try await update(#""validSince":"\#(Int(clock.now.timeIntervalSince1970))""#)
            #expect(try await Self.createCookie(client, body).errorMessage == "TOKEN_EXPIRED")

            let (_, other) = try await Self.signedInAgain(client)
            #expect(try await client.post("/v1/accounts:delete", json: #"{"localId":"\#(localID)"}"#, key: nil, headers: Self.admin).status == .ok)
            #expect(try await Self.createCookie(client, #"{"idToken":"\#(other)","validDuration":600}"#).errorMessage == "USER_NOT_FOUND")
        }
    }

    /// Only an admin, and only for this project.
    @Test func onlyAnAdminOfThisProjectGetsACookie() async throws {
        try await withApp { client, _, _ in
            let (_, idToken) = try await Self.signedIn(client)
            let body = #"{"idToken":"\#(idToken)","validDuration":600}"#
            let asApp = try await client.post(Self.path, json: body)
            #expect(asApp.status == .unauthorized, "\(asApp.text)")
            let asUser = try await Self.createCookie(client, body, headers: [.authorization: "Bearer \(idToken)"])
            #expect(asUser.status == .unauthorized, "\(asUser.text)")
            let otherProject = try await Self.createCookie(client, body, path: "/v1/projects/other-project:createSessionCookie")
            #expect(otherProject.status == .notFound, "\(otherProject.text)")
            #expect(try await Self.createCookie(client, body).status == .ok)
        }
    }

    /// The account of `signedIn`, signed in again with its password: a fresh ID token.
    static func signedInAgain(_ client: any TestClientProtocol) async throws -> (localID: String, idToken: String) {
        let answer = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"dana@example.com","password":"dana's password"}"#)
        return (try #require(try answer.json["localId"] as? String), try #require(try answer.json["idToken"] as? String, "\(answer.text)"))
    }
}
