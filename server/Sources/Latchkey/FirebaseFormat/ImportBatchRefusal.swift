/// A mistake in an `accounts:batchCreate` request itself (no users, too many, the hash configuration, a uid given twice),
/// worded as Firebase words it (`CODE : detail`): it refuses the whole batch, where one user's fault refuses that user.
package struct ImportBatchRefusal: Error, Sendable, Equatable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }
}
