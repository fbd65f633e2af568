/// What the landing page of `/__/auth/action` can show: exactly one of the outcomes is true.
struct ActionPage {
    /// Why the link could not be handed over, or that it belongs in an app.
    enum Outcome {
        /// Not a sign-in link at all (no code, another mode, a continue URL no longer authorized).
        case damaged
        /// No such code, or one killed by too many wrong addresses.
        case unknown
        case expired
        case used
        /// Valid, but meant for an app that did not open it.
        case openInApp
    }

    let appName: String
    /// The `style-src` nonce of this response.
    let nonce: String
    /// The language folder the page is rendered from, for `<html lang>`; set by `PageRenderer`.
    var language = "en"
    let isDamaged: Bool
    let isUnknown: Bool
    let isExpired: Bool
    let isUsed: Bool
    let isOpenInApp: Bool
    /// Where the user goes back to the app or site, without any code.
    let backURL: String?
    /// The link itself (or an Android intent to it), for "Open in the app".
    let openInAppURL: String?
    let appStoreURL: String?
    let playStoreURL: String?
    /// Whether the page offers a store at all (stored: templates see stored properties only).
    let hasStoreLinks: Bool
    /// The content of Safari's `apple-itunes-app` meta tag, when the app's App Store id is known.
    var smartAppBanner: String?

    init(
        _ outcome: Outcome, appName: String, nonce: String, backURL: String? = nil, openInAppURL: String? = nil, appStoreURL: String? = nil,
        playStoreURL: String? = nil
    ) {
        self.appName = appName
        self.nonce = nonce
        isDamaged = outcome == .damaged
        isUnknown = outcome == .unknown
        isExpired = outcome == .expired
        isUsed = outcome == .used
        isOpenInApp = outcome == .openInApp
        self.backURL = backURL
        self.openInAppURL = openInAppURL
        self.appStoreURL = appStoreURL
        self.playStoreURL = playStoreURL
        hasStoreLinks = appStoreURL != nil || playStoreURL != nil
    }

}
