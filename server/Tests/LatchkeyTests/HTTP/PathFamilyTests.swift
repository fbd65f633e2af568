import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// The same handlers answer under every path family Firebase clients and SDKs use.
@Suite struct PathFamilyTests {
    static let sendBody = #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/"}"#

    @Test(arguments: [
        "/v1/accounts:sendOobCode", "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode",
        "/v1/projects/test-project/accounts:sendOobCode", "/identitytoolkit.googleapis.com/v1/projects/test-project/accounts:sendOobCode",
        "/www.googleapis.com/identitytoolkit/v3/relyingparty/getOobConfirmationCode",
    ])
    func sendOobCodeAnswersUnderEveryFamily(_ path: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post(path, json: Self.sendBody)
            #expect(response.status == .ok)
            #expect(try response.json["kind"] as? String == "identitytoolkit#GetOobConfirmationCodeResponse")
        }
    }

    @Test func anotherProjectIsNotFound() async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/projects/other-project/accounts:sendOobCode", json: Self.sendBody)
            #expect(response.status == .notFound)
            #expect(response.errorMessage == "PROJECT_NOT_FOUND")
        }
    }

    @Test func theTokenEndpointAnswersUnderTheSecureTokenPrefix() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let token = try #require(try await client.complete(code: try await mailbox.code()).json["refreshToken"] as? String)
            let response = try await client.post(
                "/securetoken.googleapis.com/v1/token", json: #"{"grant_type":"refresh_token","refresh_token":"\#(token)"}"#)
            #expect(response.status == .ok)
        }
    }

    @Test func legacyV3NamesReachTheV1Handlers() async throws {
        try await withApp { client, _, mailbox in
            let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
            try await client.post(v3 + "getOobConfirmationCode", json: Self.sendBody)
            let signedIn = try await client.post(v3 + "emailLinkSignin", json: #"{"email":"a@example.com","oobCode":"\#(try await mailbox.code())"}"#)
            let idToken = try #require(try signedIn.json["idToken"] as? String)
            let info = try await client.post(v3 + "getAccountInfo", json: #"{"idToken":"\#(idToken)"}"#)
            #expect(try info.json["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")
            let created = try await client.post(v3 + "signupNewUser", json: #"{"email":"b@example.com","password":"123456"}"#)
            #expect(created.status == .ok)
            #expect(try await client.post(v3 + "verifyPassword", json: #"{"email":"b@example.com","password":"123456"}"#).status == .ok)
        }
    }

    @Test func adminCallsNeedNoAPIKeyButAValidBearerToken() async throws {
        try await withApp { client, _, _ in
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            let created = try await client.post(
                "/v1/projects/test-project/accounts", json: #"{"email":"c@example.com","displayName":"C"}"#, key: nil, headers: admin)
            #expect(created.status == .ok)
            #expect(try created.json["displayName"] as? String == "C")
            let withoutAdmin = try await client.post("/v1/projects/test-project/accounts", json: #"{"email":"d@example.com"}"#)
            #expect(withoutAdmin.status == .unauthorized)
            let refused = try await client.post(
                "/v1/projects/test-project/accounts", json: #"{"email":"e@example.com","displayName":"bad\u0001"}"#, key: nil, headers: admin)
            #expect(refused.errorMessage == "INVALID_PROFILE_ATTRIBUTE")
            for uid in [#"evil\u202Egnp.exe"#, #"line\u0085break"#] {
                let chosen = try await client.post(
                    "/v1/projects/test-project/accounts", json: #"{"localId":"\#(uid)","email":"f@example.com"}"#, key: nil, headers: admin)
                #expect(chosen.errorMessage?.hasPrefix("INVALID_LOCAL_ID") == true)
            }
            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"email":["e@example.com"]}"#, key: nil, headers: admin)
            #expect((try lookup.json["users"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func snakeCaseFieldNamesAreAccepted() async throws {
        try await withApp(["apps": ActionLandingTests.apps]) { client, _, mailbox in
            let body = #"{"request_type":"EMAIL_SIGNIN","email":"a@example.com","continue_url":"https://app.example.com/","ios_bundle_id":"com.example.ios"}"#
            #expect(try await client.post("/v1/accounts:sendOobCode", json: body).status == .ok)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            #expect(link.queryItems?.first { $0.name == "iosBundleId" }?.value == "com.example.ios")
        }
    }

    @Test func tenantsAreRefusedUntilTheyExist() async throws {
        try await withApp { client, _, _ in
            let scoped = try await client.post("/v1/projects/test-project/tenants/t1/accounts:sendOobCode", json: Self.sendBody)
            #expect(scoped.errorMessage == "OPERATION_NOT_ALLOWED : Tenants are not supported.")
            let body = #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","tenantId":"t1"}"#
            #expect(try await client.post("/v1/accounts:sendOobCode", json: body).errorMessage == "TENANT_ID_MISMATCH : This server has no tenants.")
        }
    }

    /// Any named tenant is refused, whatever JSON type names it; absent, null and empty name none.
    @Test(arguments: [(#""t1""#, false), ("5", false), ("{}", false), ("null", true), (#""""#, true)])
    func aTenantInTheBodyIsRefusedWhateverItsType(_ tenant: String, _ isServed: Bool) async throws {
        try await withApp { client, _, _ in
            let body = #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","tenantId":\#(tenant)}"#
            let response = try await client.post("/v1/accounts:sendOobCode", json: body)
            #expect(isServed ? response.status == .ok : response.errorMessage == "TENANT_ID_MISMATCH : This server has no tenants.")
        }
    }
}
