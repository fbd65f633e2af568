extension PhoneNumber {
    /// The number in a request's `phoneNumber` field: absent or empty is `MISSING_PHONE_NUMBER`, anything but a
    /// plausible E.164 number `INVALID_PHONE_NUMBER` (Firebase's "Invalid format.").
    package init(requestField raw: String?) throws(SignInError) {
        guard let raw, !raw.isEmpty else { throw .missingPhoneNumber }
        guard let number = PhoneNumber(raw) else { throw .invalidPhoneNumber }
        self = number
    }
}
