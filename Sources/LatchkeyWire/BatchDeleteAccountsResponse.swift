/// Firebase's `BatchDeleteAccountsResponse`: only the uids that were not deleted, each with its place in the request;
/// `errors` is absent when every uid was deleted or unknown (firebase-tools' emulator, `batchDelete` in
/// `src/emulator/auth/operations.ts`, answers `{}` then, and the Admin SDKs read a missing list as no errors).
public struct BatchDeleteAccountsResponse: Sendable, Codable, Equatable {
    public var errors: [BatchDeleteErrorInfo]?

    /// One uid of the request that was not deleted.
    public struct BatchDeleteErrorInfo: Sendable, Codable, Equatable {
        /// Its index in the request's `localIds`.
        public var index: Int
        public var localId: String
        /// `CODE : detail`, as Google's error messages read.
        public var message: String

        public init(index: Int, localId: String, message: String) {
            self.index = index
            self.localId = localId
            self.message = message
        }
    }

    public init(errors: [BatchDeleteErrorInfo]?) {
        self.errors = errors
    }
}
