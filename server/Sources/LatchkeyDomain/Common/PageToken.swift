import Foundation

/// The token of a listing's next page: the last id of the page before, base64url, opaque to clients.
package enum PageToken {
    /// The token that resumes a listing after `id`.
    package static func resuming(after id: String) -> String {
        Data(id.utf8).base64URLEncoded()
    }

    /// The id `token` resumes after: `nil` without one (the first page); `invalid` for one this server did not give.
    package static func id<Failure: Error>(resumedBy token: String?, invalid: Failure) throws(Failure) -> String? {
        guard let token, !token.isEmpty else { return nil }
        guard let data = Data(base64URLEncoded: token), let id = String(data: data, encoding: .utf8) else { throw invalid }
        return id
    }
}
