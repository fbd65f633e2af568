import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The admin-only routes are a group of their own under every path family (`AdminRequestContext`): nobody reaches them
/// without an admin token, and there an admin may send the bodies an import needs, which the paths apps share with
/// admins never accept.
@Suite struct AdminRoutesTests {
    struct Route: Sendable, CustomTestStringConvertible {
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        var testDescription: String { "\(method) \(path)" }
    }

    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
    static let families = ["/v1", "/identitytoolkit.googleapis.com/v1", "/v1/projects/test-project", "/identitytoolkit.googleapis.com/v1/projects/test-project"]
    static let routes: [Route] =
        families.flatMap { family in
            [
                Route(method: .get, path: "\(family)/accounts:batchGet", body: nil),
                Route(method: .post, path: "\(family)/accounts:batchCreate", body: #"{"users":[{"localId":"imported"}]}"#),
            ]
        }
        + ["/v1/projects/test-project", "/identitytoolkit.googleapis.com/v1/projects/test-project"].map {
            Route(method: .post, path: "\($0)/accounts", body: "{}")
        }
        + ["/v2/projects/test-project", "/identitytoolkit.googleapis.com/v2/projects/test-project"].flatMap { family in
            ["config", "oauthIdpConfigs", "defaultSupportedIdpConfigs"].map { Route(method: .get, path: "\(family)/\($0)", body: nil) }
        }

    static func send(_ client: any TestClientProtocol, _ route: Route, query: String = "", headers: HTTPFields) async throws -> TestResponse {
        var headers = headers
        if route.body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: route.path + query, method: route.method, headers: headers, body: route.body.map { ByteBuffer(string: $0) })
    }

    @Test(arguments: routes)
    func onlyAnAdminTokenReachesAnAdminRoute(_ route: Route) async throws {
        try await withApp { client, _, _ in
            let asApp = try await Self.send(client, route, query: "?key=\(TestWorkspace.apiKey)", headers: [:])
            #expect(asApp.status == .unauthorized, "\(asApp.text)")
            let badToken = try await Self.send(client, route, headers: [.authorization: "Bearer not-the-admin"])
            #expect(badToken.status == .unauthorized, "\(badToken.text)")
            let asAdmin = try await Self.send(client, route, headers: Self.admin)
            #expect(asAdmin.status == .ok, "\(asAdmin.text)")
        }
    }

    /// Over the public 64 KiB: any admin route reads it (what it then says of the value is its own business), a path
    /// apps share with admins refuses it, and so does an admin route asked without the admin token.
    @Test func anAdminsLargeBodyIsReadOnAdminRoutesOnly() async throws {
        try await withApp { client, _, _ in
            let large = String(repeating: "x", count: 100_000)
            for path in ["/v2/projects/test-project/oauthIdpConfigs?oauthIdpConfigId=oidc.large", "/v1/projects/test-project/accounts"] {
                let answer = try await client.post(path, json: #"{"displayName":"\#(large)"}"#, key: nil, headers: Self.admin)
                #expect(answer.status != .contentTooLarge && answer.status != .unauthorized, "\(path): \(answer.text)")
            }
            let batch = #"{"users":[{"localId":"padded","displayName":"\#(large.prefix(2048))"}],"padding":"\#(large)"}"#
            let imported = try await client.post(
                "/identitytoolkit.googleapis.com/v1/projects/test-project/accounts:batchCreate", json: batch, key: nil, headers: Self.admin)
            #expect(imported.status != .contentTooLarge && imported.status != .unauthorized, "\(imported.text)")

            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(large)"]}"#, key: nil, headers: Self.admin)
            #expect(lookup.status == .contentTooLarge)
            let asApp = try await client.post("/v1/projects/test-project/accounts:batchCreate", json: batch)
            #expect(asApp.status == .contentTooLarge)
            let badToken = try await client.post(
                "/v1/projects/test-project/accounts:batchCreate", json: batch, key: nil, headers: [.authorization: "Bearer not-the-admin"])
            #expect(badToken.status == .contentTooLarge)
        }
    }
}
