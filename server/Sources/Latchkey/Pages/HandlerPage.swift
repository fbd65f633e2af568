/// What the provider sign-in page of `/__/auth/handler` can show: exactly one of the outcomes is true.
struct HandlerPage {
    enum Outcome {
        /// The request to start a sign-in names no provider, app or page this server knows.
        case damaged
        /// The provider's answer belongs to no sign-in in progress: unknown, finished or too late.
        case expired
        /// The provider's answer is in the URL's fragment, which only a script can read and post back.
        case continuing
    }

    let appName: String
    /// The `style-src` nonce of this response.
    let nonce: String
    /// The language folder the page is rendered from, for `<html lang>`; set by `PageRenderer`.
    var language = "en"
    let isDamaged: Bool
    let isExpired: Bool
    let isContinuing: Bool

    init(_ outcome: Outcome, appName: String, nonce: String) {
        self.appName = appName
        self.nonce = nonce
        isDamaged = outcome == .damaged
        isExpired = outcome == .expired
        isContinuing = outcome == .continuing
    }
}
