extension EmailAddress {
    /// The address in a request's `email` field: absent or empty is `MISSING_EMAIL`, an unacceptable address
    /// `INVALID_EMAIL` (a value of the wrong type was already refused when the body was decoded).
    package init(requestField raw: String?) throws(SignInError) {
        guard let raw, !raw.isEmpty else { throw .missingEmail }
        guard let email = EmailAddress(raw) else { throw .invalidEmail }
        self = email
    }
}
