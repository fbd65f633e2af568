import Foundation

/// An email action link as the app receives it: Latchkey's own `/__/auth/action?mode=…&oobCode=…`, or the same
/// wrapped as Firebase wrapped it for apps (Hosting's `/__/auth/links?link=…`, a Dynamic Link's `link=`, iOS's
/// `deep_link_id=`).
struct EmailActionLink: Equatable {
    let mode: String
    let code: String
    let continueURL: String?

    /// Reads `link` after unwrapping it as Firebase's SDKs do: the first present of the `link` inside `deep_link_id`,
    /// `deep_link_id`, the `deep_link_id` inside `link`, `link`, else the link itself. `nil` unless it has a mode and
    /// a code.
    init?(_ link: String) {
        let outer = Self.query(of: link)
        let wrapped = outer["link"]
        let iOSDeepLink = outer["deep_link_id"]
        let unwrapped = iOSDeepLink.flatMap { Self.query(of: $0)["link"] } ?? iOSDeepLink
            ?? wrapped.flatMap { Self.query(of: $0)["deep_link_id"] } ?? wrapped ?? link
        let fields = Self.query(of: unwrapped)
        guard let mode = fields["mode"], let code = fields["oobCode"], !mode.isEmpty, !code.isEmpty else { return nil }
        self.mode = mode
        self.code = code
        continueURL = fields["continueUrl"]
    }

    /// Whether the link signs in (`mode=signIn`) rather than resets a password or verifies an address.
    var isSignIn: Bool { mode == "signIn" }

    /// The decoded query parameters of `link`, the last of a repeated name winning; empty for a link without a query.
    private static func query(of link: String) -> [String: String] {
        guard let items = URLComponents(string: link.trimmingCharacters(in: .whitespacesAndNewlines))?.queryItems else { return [:] }
        return Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { $1 })
    }
}
