/// Latchkey serves one project without tenants (Identity Platform's multi-tenancy).
package enum Tenancy {
    /// Refuses a request that names a tenant: answering it for the project would sign someone in to the wrong place.
    /// An absent, null or empty `tenantId` names none.
    package static func requireNoTenant(_ requested: String?) throws(SignInError) {
        if let requested, !requested.isEmpty { throw .tenantIDMismatch }
    }
}
