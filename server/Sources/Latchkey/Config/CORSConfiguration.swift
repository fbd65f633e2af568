import Foundation

/// Which web origins may call the API from a browser.
///
/// - `cors.allowedOrigins` (list of strings, default none): exact origins such as `"https://app.example.com"`,
///   or `"*"` for any. When absent, every authorized domain is allowed over https on its default port, plus
///   `localhost` and `127.0.0.1` on any port. Credentials are never allowed, whatever the list.
package struct CORSConfiguration: Sendable {
    package var allowedOrigins: [String]?

    init(_ read: inout ConfigSectionReader) {
        allowedOrigins = read.stringArray("cors.allowedOrigins").map { origins in
            origins.compactMap { origin in
                guard origin == "*" || Self.isOrigin(origin) else {
                    read.problems.add("cors.allowedOrigins", "\"\(origin)\" is not an origin such as https://app.example.com, or \"*\"")
                    return nil
                }
                return origin.lowercased()
            }
        }
    }

    /// `scheme://host[:port]` and nothing more, as browsers send in `Origin`.
    static func isOrigin(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), components.host?.isEmpty == false, components.path.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil
        else { return false }
        return true
    }
}
