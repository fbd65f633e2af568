import Foundation
import Hummingbird
import LatchkeyDomain

/// The context of the admin routes (`accounts:batchCreate`, `accounts:batchGet`, `projects/{p}/accounts`, the v2
/// project configuration and identity provider admin API): it exists only for a request with a valid admin token,
/// which its handlers receive as `admin`, and it allows the admin's larger bodies.
///
/// Made from the `AppRequestContext` the API group authenticated; a request without an admin token is refused here,
/// before any admin handler runs.
package struct AdminRequestContext: ChildRequestContext, ClientRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let admin: AdminCaller
    package let clientIP: String?

    package init(context: AppRequestContext) throws {
        guard let admin = context.admin else { throw APIError.unauthenticated }
        coreContext = context.coreContext
        self.admin = admin
        clientIP = context.clientIP
    }

    /// An admin's import of 1,000 users with their hashes (`server.maxAdminBodyBytes`).
    package var maxUploadSize: Int { admin.maxUploadSize }

    package var responseEncoder: JSONEncoder { .api }

    /// The admin, for the audit log; admins count against no rate limit.
    func caller(of request: Request) -> Caller {
        Caller(requester: requester(of: request), isAdmin: true)
    }
}
