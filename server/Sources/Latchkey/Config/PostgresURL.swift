import Foundation

/// `storage.postgres.url`: libpq's URL form, with one host or several (`postgres://user@h1:5432,h2:5432/db`).
///
/// Parsed by hand because `URLComponents` takes no host list. Of the query only `target_session_attrs` is taken, and
/// only as `read-write` or `primary` (Latchkey writes, so it always looks for the primary); any other parameter is
/// refused rather than ignored, since the `storage.postgres` keys say the rest (`tls`, `passwordEnv`, ...).
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
        guard !text.contains("#") else { throw shape }
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
            if !userInfo.isEmpty {
                guard let decoded = userInfo.removingPercentEncoding else { throw shape }
                user = decoded
            }
            hostList = authority[authority.index(after: at)...]
        }
        self.user = user
        let hosts = hostList.split(separator: ",", omittingEmptySubsequences: false).map { PostgresHost(listed: $0) }
        guard !hosts.isEmpty, !hosts.contains(nil) else { throw shape }
        self.hosts = hosts.compactMap { $0 }
        guard !path.contains("/") else { throw shape }
        if path.isEmpty {
            database = nil
        } else {
            guard let decoded = path.removingPercentEncoding else { throw shape }
            database = decoded
        }
        for parameter in query.split(separator: "&") {
            let (name, value) = (parameter.prefix { $0 != "=" }, parameter.drop { $0 != "=" }.dropFirst())
            switch name {
            case "target_session_attrs" where value == "read-write" || value == "primary":
                continue
            case "target_session_attrs":
                throw Problem(description: "target_session_attrs=\(value): Latchkey writes, so it always connects to the primary (read-write)")
            case "password":
                throw Problem(description: "must not hold a password: name its variable in passwordEnv")
            default:
                throw Problem(description: "\(name) is not read from the URL: the storage.postgres keys say the rest (tls, passwordEnv, ...)")
            }
        }
    }
}
