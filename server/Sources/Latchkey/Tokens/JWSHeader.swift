import Foundation

/// The header of a compact JWS, read before its signature is checked, to tell which key it names.
struct JWSHeader: Decodable {
    var kid: String?

    /// The header of `token`; nil when its first part is not base64url JSON.
    init?(of token: String) {
        guard let part = token.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first else { return nil }
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let json = Data(base64Encoded: base64), let header = try? JSONDecoder().decode(Self.self, from: json) else { return nil }
        self = header
    }
}
