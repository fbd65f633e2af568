#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6 (an IPv4-mapped IPv6 address counts as IPv4).
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a literal address, tolerating the forms proxies write: `[2001:db8::1]`, `192.0.2.1:8080`, `[::1]:443`.
    package init?(_ text: some StringProtocol) {
        var literal = Substring(text.trimmingSpacesAndQuotes)
        if literal.hasPrefix("[") {
            guard let close = literal.firstIndex(of: "]") else { return nil }
            literal = literal[literal.index(after: literal.startIndex)..<close]
        } else if literal.filter({ $0 == ":" }).count == 1, let colon = literal.firstIndex(of: ":") {
            literal = literal[..<colon]
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, String(literal), &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, String(literal), &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes = all.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    package var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return written == nil ? "?" : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `::1/128`; a bare address is a block of one).
package struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let base: IPAddress
    let prefixLength: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // No brackets or ports here: a block is an address and a length.
        guard (1...2).contains(parts.count), !parts[0].contains("["), parts[0].filter({ $0 == ":" }).count != 1,
            let base = IPAddress(parts[0])
        else { return nil }
        let bits = base.bytes.count * 8
        guard let length = parts.count == 2 ? Int(parts[1]) : bits, (0...bits).contains(length) else { return nil }
        self.base = base
        self.prefixLength = length
    }

    /// The block of `prefixLength` bits that holds `address`.
    package init(_ address: IPAddress, prefixLength: Int) {
        let length = min(max(prefixLength, 0), address.bytes.count * 8)
        var remaining = length
        base = IPAddress(bytes: address.bytes.map { byte in
            defer { remaining -= 8 }
            return remaining >= 8 ? byte : remaining <= 0 ? 0 : byte & ~(0xFF >> UInt8(remaining))
        })
        self.prefixLength = length
    }

    package var description: String { "\(base)/\(prefixLength)" }

    package func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == base.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(base.bytes, address.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }
}

extension StringProtocol {
    fileprivate var trimmingSpacesAndQuotes: Substring {
        let unwanted: Set<Character> = [" ", "\t", "\""]
        let start = firstIndex { !unwanted.contains($0) } ?? endIndex
        let end = lastIndex { !unwanted.contains($0) }.map(index(after:)) ?? start
        return Substring(self[start..<Swift.max(start, end)])
    }
}
