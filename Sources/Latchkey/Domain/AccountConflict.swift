/// A write the store refused because another account already holds the uid or the address.
///
/// The store's unique constraints, not a look before the write, keep both unique: a look proves nothing once several
/// writers race, and a constraint holds whatever their order.
package enum AccountConflict: Error, Sendable, Equatable {
    case idTaken
    case emailTaken

    /// What the API answers for it.
    var refusal: SignInError {
        switch self {
        case .idTaken: .duplicateLocalID
        case .emailTaken: .emailExists
        }
    }
}
