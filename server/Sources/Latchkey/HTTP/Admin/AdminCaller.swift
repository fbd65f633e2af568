/// An admin tool (a Firebase Admin SDK, `latchkey` scripts) that presented a valid admin bearer token: the value
/// admin handlers receive through `AdminRequestContext`, so an admin route cannot be reached without one.
package struct AdminCaller: Sendable {
    /// How large a body an admin may send to an admin route (`server.maxAdminBodyBytes`): an import of 1,000 users
    /// with their hashes is far over the public 64 KiB.
    package let maxUploadSize: Int
}
