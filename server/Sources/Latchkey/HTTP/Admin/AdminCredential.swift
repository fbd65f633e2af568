/// What a request's `Authorization` header proves, decided once per request by `AdminCredentialMiddleware`.
package enum AdminCredential: Sendable {
    /// No `Authorization` header: an app's request, which needs an API key.
    case none
    case admin(AdminCaller)
    /// A header that is not a valid admin token: refused wherever the API is served.
    case refused
}
