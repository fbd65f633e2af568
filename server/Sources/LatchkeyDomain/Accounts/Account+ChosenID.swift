extension Account {
    /// A uid chosen by an admin (`create_user(uid=…)`, an import): 1 to 128 characters, none of them control characters
    /// (Firebase's rule) nor bidirectional formatting characters, since a uid reaches log lines and `latchkey audit`'s
    /// terminal. Nil when none was chosen.
    package static func chosenID(_ id: String?) throws(SignInError) -> String? {
        guard let id else { return nil }
        guard (1...128).contains(id.count), id.displaySafe == id else { throw .invalidLocalID }
        return id
    }
}
