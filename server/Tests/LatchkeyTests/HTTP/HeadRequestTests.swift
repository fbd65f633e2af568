import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// `HEAD` answers every `GET` path as `GET` would, without the body: link checkers, monitors and mail scanners send it.
@Suite struct HeadRequestTests {
    @Test(arguments: [
        "/.well-known/jwks.json", "/.well-known/openid-configuration", "/openapi.json", "/healthz", "/readyz",
        "/.well-known/assetlinks.json", "/__/auth/action?mode=signIn&oobCode=unknown", "/__/auth/action", "/__/dev/mailbox",
        "/__/dev/mailbox/0000000001", "/__/dev/mailbox/0000000009",
    ])
    func headAnswersAsGetWithoutTheBody(_ path: String) async throws {
        try await withApp(DevelopmentRoutesTests.development) { client, _, mailbox in
            try await client.sendLink()
            _ = try await mailbox.waitForMessages(1)
            let get = try await client.execute(uri: path, method: .get)
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == get.status)
            #expect(head.status != .methodNotAllowed)
            #expect(head.body.readableBytes == 0)
            for name in [HTTPField.Name.contentType, .contentLength, .cacheControl] {
                #expect(head.headers[name] == get.headers[name], "\(name)")
            }
        }
    }

    @Test func headOnAPostOnlyPathIs405() async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: "/v1/accounts:sendOobCode", method: .head)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
        }
    }
}
