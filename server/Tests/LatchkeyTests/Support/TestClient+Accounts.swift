import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

extension TestClientProtocol {
    /// Every account's uid, through the admin listing: what a test sees on either store.
    func accountIDs() async throws -> [String] {
        let answer = try await execute(
            uri: "/v1/projects/test-project/accounts:batchGet?maxResults=1000", method: .get,
            headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
        return (try answer.json["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
    }
}
