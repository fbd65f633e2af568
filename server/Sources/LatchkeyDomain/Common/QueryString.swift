/// A query string or form body (`a=1&b=2`) with every value percent-encoded but RFC 3986's unreserved characters, so
/// that no value can end its parameter; the same text is a valid `application/x-www-form-urlencoded` body.
package enum QueryString {
    package static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.percentEncodedForQuery)=\($1.percentEncodedForQuery)" }.joined(separator: "&")
    }

    /// The parameters of a query string or form body, in order (`+` is a space); nil when a name or value is not
    /// valid percent-encoding. Parsed by hand: Foundation's `URLComponents` stops the process on such text.
    package static func decode(_ text: String) -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded(parts[0]), let value = decoded(parts.count > 1 ? parts[1] : "") else { return nil }
            parameters.append((name, value))
        }
        return parameters
    }
}
