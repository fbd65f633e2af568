/// The store could not be reached or did not answer in time (PostgreSQL down, the SQLite file locked by another
/// process): nothing was written, and the request may be tried again.
package struct StoreUnavailable: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
