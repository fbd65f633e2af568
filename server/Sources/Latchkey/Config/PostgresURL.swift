import Foundation

/// `storage.postgres.url`: libpq's URL form, with one host or several (`postgres://user@h1:5432,h2:5432/db`).
///
/// Parsed by hand because `URLComponents` takes no host list. Of the query only `target_session_attrs` is read, and
/// only `read-write` or `primary` is accepted: Latchkey writes, so it always looks for the primary.
struct PostgresURL {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    let hosts: [PostgresHost]
    let user: String?
    let database: String?

    init(_ text: String) throws(Problem) {
        let shape = Problem(description: "expected postgres://user@host:port/database (several hosts: host1:port1,host2:port2)")
        guard let scheme = text.range(of: "://"), ["postgres", "postgresql"].contains(text[..<scheme.lowerBound]) else { throw shape }
        var rest = text[scheme.upperBound...]
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).drop { $0 == "/" }
        var hostList = authority
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":") else { throw Problem(description: "must not hold a password: name its variable in passwordEnv") }
            user = userInfo.isEmpty ? nil : userInfo.removingPercentEncoding
            hostList = authority[authority.index(after: at)...]
        }
        self.user = user
        let hosts = hostList.split(separator: ",", omittingEmptySubsequences: false).map { PostgresHost(listed: $0) }
        guard !hosts.isEmpty, !hosts.contains(nil) else { throw shape }
        self.hosts = hosts.compactMap { $0 }
        database = path.isEmpty ? nil : path.removingPercentEncoding
        for parameter in query.split(separator: "&") where parameter.hasPrefix("target_session_attrs=") {
            let value = parameter.dropFirst("target_session_attrs=".count)
            guard value == "read-write" || value == "primary" else {
                throw Problem(description: "target_session_attrs=\(value): Latchkey writes, so it always connects to the primary (read-write)")
            }
        }
    }
}
