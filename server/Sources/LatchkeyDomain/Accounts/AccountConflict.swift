/// A write the store refused because another account already holds the uid, the address, the phone number or
/// the identity.
///
/// The store's unique constraints, not a look before the write, keep all four unique: a look proves nothing once
/// several writers race, and a constraint holds whatever their order.
package enum AccountConflict: Error, Sendable, Equatable {
    case idTaken
    case emailTaken
    case phoneNumberTaken
    /// The provider's user id already signs in to another account.
    case identityTaken

    /// What the API answers for it.
    package var refusal: SignInError {
        switch self {
        case .idTaken: .duplicateLocalID
        case .emailTaken: .emailExists
        case .phoneNumberTaken: .phoneNumberExists
        case .identityTaken: .federatedUserIDAlreadyLinked
        }
    }
}
