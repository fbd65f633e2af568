import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// `accounts:batchGet`, the admin listing behind the Admin SDKs' `list_users`: every account once, in uid order, a
/// page at a time.
@Suite struct AccountListingTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
    static let listing = "/v1/projects/test-project/accounts:batchGet"

    static func page(_ client: any TestClientProtocol, _ query: String) async throws -> TestResponse {
        try await client.execute(uri: "\(listing)?\(query)", method: .get, headers: admin)
    }

    @Test func everyAccountOnceInUidOrderAPageAtATime() async throws {
        try await withApp { client, _, _ in
            var created: [String] = []
            for index in 0..<25 {
                let body = #"{"localId":"user-\#(String(format: "%02d", (index * 7) % 25))","email":"user\#(index)@example.com","password":"password \#(index)"}"#
                let answer = try await client.post("/v1/projects/test-project/accounts", json: body, key: nil, headers: Self.admin)
                created.append(try #require(try answer.json["localId"] as? String))
            }
            var listed: [String] = []
            var token = ""
            var pages = 0
            repeat {
                let answer = try await Self.page(client, "maxResults=10" + (token.isEmpty ? "" : "&nextPageToken=\(token)"))
                #expect(answer.status == .ok, "\(answer.text)")
                let users = try answer.json["users"] as? [[String: Any]] ?? []
                listed += users.compactMap { $0["localId"] as? String }
                // Password hashes show only as the redacted placeholder.
                #expect(users.allSatisfy { $0["passwordHash"] as? String == "UkVEQUNURUQ=" && $0["email"] is String })
                token = try answer.json["nextPageToken"] as? String ?? ""
                pages += 1
            } while !token.isEmpty && pages < 10
            #expect(pages == 3 && listed == created.sorted())
            // With no size, Firebase's 20.
            #expect((try await Self.page(client, "").json["users"] as? [Any])?.count == 20)
        }
    }

    @Test func onlyAdminsListAndBadPagesAreRefused() async throws {
        try await withApp { client, _, _ in
            let asApp = try await client.execute(uri: "\(Self.listing)?key=\(TestWorkspace.apiKey)", method: .get)
            #expect(asApp.status == .unauthorized || asApp.status == .forbidden)
            for query in ["maxResults=0", "maxResults=1001", "maxResults=ten", "nextPageToken=%25%25not-base64"] {
                #expect(try await Self.page(client, query).errorMessage == "INVALID_PAGE_SELECTION", "\(query)")
            }
            let empty = try await Self.page(client, "maxResults=5")
            let fields = try empty.json
            #expect(empty.status == .ok && fields["users"] == nil && fields["nextPageToken"] == nil)
        }
    }
}
