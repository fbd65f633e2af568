/// One PostgreSQL server of `storage.postgres`.
package struct PostgresHost: Sendable, Equatable, CustomStringConvertible {
    package var name: String
    package var port: Int

    package init(_ name: String, port: Int = 5432) {
        self.name = name
        self.port = port
    }

    /// `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address (its port 5432), as URLs and
    /// `storage.postgres.hosts` write a server; nil for anything else.
    init?(listed text: some StringProtocol) {
        var name = Substring(text)
        var port = 5432
        let isBareIPv6 = !name.hasPrefix("[") && name.filter { $0 == ":" }.count > 1
        if !isBareIPv6, let colon = name.lastIndex(of: ":"), !name.hasPrefix("[") || name[..<colon].hasSuffix("]") {
            guard let number = Int(name[name.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
            port = number
            name = name[..<colon]
        }
        if name.hasPrefix("[") {
            guard name.hasSuffix("]") else { return nil }
            name = name.dropFirst().dropLast()
        }
        guard !name.isEmpty, !name.contains(where: { $0 == "/" || $0 == "@" || $0 == "," || $0.isWhitespace }) else { return nil }
        self.init(String(name), port: port)
    }

    package var description: String { name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)" }
}
