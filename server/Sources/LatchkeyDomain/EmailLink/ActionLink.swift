import Foundation

/// The URL mailed to the user: `PUBLIC_URL/__/auth/action?mode=signIn&oobCode=…` (or another action's mode), as
/// Firebase builds it, carrying the ActionCodeSettings so the landing page and app-link files can use them.
package struct ActionLink: Sendable {
    /// The path of the links an app may open: sign-in links, and the other actions' when the app handles the code.
    package static let actionPath = "/__/auth/action"
    /// The path of the other actions' links when no app handles the code: the same landing page, on a path that no app
    /// claims (Android's intent filters cannot tell links apart by their query), so the browser always gets them.
    package static let browserPath = "/__/auth/confirm"

    package let url: String

    package init(
        _ action: EmailAction = .signIn, publicURL: URL, code: String, apiKey: String, settings: ActionCodeSettings, language: LanguageTag
    ) {
        var query: [(String, String)] = [("mode", action.rawValue), ("oobCode", code), ("apiKey", apiKey)]
        // Actions other than sign-in may come without a continue URL: their page then has no way back to show.
        if !settings.continueURL.isEmpty { query.append(("continueUrl", settings.continueURL)) }
        query.append(("lang", language.value))
        if let bundleID = settings.iOSBundleID { query.append(("iosBundleId", bundleID)) }
        if let package = settings.androidPackageName {
            query.append(("androidPackageName", package))
            query.append(("androidInstallApp", settings.androidInstallApp ? "true" : "false"))
            if let minimum = settings.androidMinimumVersion { query.append(("androidMinimumVersion", minimum)) }
        }
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        let path = action == .signIn || settings.canHandleCodeInApp ? Self.actionPath : Self.browserPath
        url = base + path + "?" + QueryString.encode(query)
    }
}

extension String {
    /// Percent-encodes everything but RFC 3986 unreserved characters, so a value can never end a parameter.
    package var percentEncodedForQuery: String {
        addingPercentEncoding(withAllowedCharacters: Self.unreservedInQuery) ?? ""
    }

    private static let unreservedInQuery = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
