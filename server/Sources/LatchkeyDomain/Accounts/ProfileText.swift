/// A display name or photo URL as a request or an import sets it: at most 2048 characters, no control characters (they
/// reach ID tokens and emails).
package enum ProfileText {
    package static func checked(_ text: String?) throws(SignInError) -> String? {
        guard let text else { return nil }
        guard text.count <= 2048, !text.containsControlCharacters else { throw .invalidProfileAttribute }
        return text
    }
}
