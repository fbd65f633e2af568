/// An admin tool (a Firebase Admin SDK, `latchkey` scripts) that presented a valid admin bearer token: the value
/// admin handlers receive through `AdminRequestContext`, so an admin route cannot be reached without one.
package struct AdminCaller: Sendable {
    /// How large a body an admin may send to an admin route (`server.maxAdminBodyBytes`): an import of 1,000 users
    /// with their hashes is far over the public 64 KiB.
    package let maxUploadSize: Int
}

/// What a request's `Authorization` header proves, decided once per request by `AdminCredentialMiddleware`.
package enum AdminCredential: Sendable {
    /// No `Authorization` header: an app's request, which needs an API key.
    case none
    case admin(AdminCaller)
    /// A header that is not a valid admin token: refused wherever the API is served.
    case refused
}
