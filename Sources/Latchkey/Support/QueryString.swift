/// A query string or form body (`a=1&b=2`) with every value percent-encoded but RFC 3986's unreserved characters, so
/// that no value can end its parameter; the same text is a valid `application/x-www-form-urlencoded` body.
enum QueryString {
    static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.percentEncodedForQuery)=\($1.percentEncodedForQuery)" }.joined(separator: "&")
    }
}
