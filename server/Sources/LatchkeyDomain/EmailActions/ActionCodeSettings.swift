import Foundation

/// Where a sign-in link sends the user afterwards and which apps may open it (Firebase's ActionCodeSettings).
package struct ActionCodeSettings: Sendable, Equatable {
    package var continueURL: String
    package var canHandleCodeInApp: Bool
    package var iOSBundleID: String?
    package var androidPackageName: String?
    package var androidInstallApp: Bool
    package var androidMinimumVersion: String?

    /// Checks every field against the project's authorized domains and its configured apps. A request may only name
    /// configured apps: the landing page offers the named app's store and intent, so an app id taken from a request
    /// would let anyone with the public API key send a victim's live code to an app of their choosing.
    package init(
        continueURL: String?,
        canHandleCodeInApp: Bool = false,
        iOSBundleID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool = false,
        androidMinimumVersion: String? = nil,
        authorizedDomains: Set<String>,
        apps: AppsConfiguration = AppsConfiguration()
    ) throws(SignInError) {
        guard let continueURL, !continueURL.isEmpty else { throw .missingContinueURI }
        guard let host = Self.host(ofContinueURL: continueURL) else { throw .invalidContinueURI }
        guard authorizedDomains.contains(host) else { throw .unauthorizedDomain }
        if let iOSBundleID, !Self.isReverseDNS(iOSBundleID) { throw .invalidIOSBundleID }
        if let androidPackageName, !Self.isReverseDNS(androidPackageName) { throw .invalidAndroidPackageName }
        if androidInstallApp, androidPackageName == nil { throw .missingAndroidPackageName }
        if let iOSBundleID, apps.iOSApp(bundleID: iOSBundleID) == nil { throw .unlistedIOSBundleID }
        if let androidPackageName, apps.androidApp(packageName: androidPackageName) == nil { throw .unlistedAndroidPackageName }
        self.continueURL = continueURL
        self.canHandleCodeInApp = canHandleCodeInApp
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion =
            androidMinimumVersion.flatMap { Self.isVersion($0) ? $0 : nil }
            ?? androidPackageName.flatMap { apps.androidApp(packageName: $0)?.minimumVersion }
    }

    /// Settings with a way back only (none for `""`), checked when first given: what an action other than sign-in keeps
    /// when it leads to another, such as an address change to its undo.
    package static func returning(to continueURL: String) -> ActionCodeSettings {
        ActionCodeSettings(unchecked: continueURL)
    }

    /// No continue URL and no app, which actions other than sign-in may ask for: their page then shows no way back.
    package static let noContinueURL = ActionCodeSettings(unchecked: "")

    private init(unchecked continueURL: String) {
        self.continueURL = continueURL
        canHandleCodeInApp = false
        androidInstallApp = false
    }

    /// The lower-cased host of an acceptable continue URL: absolute, https (http only for local hosts),
    /// no user info, and printable ASCII only (anything else percent-encoded), so nothing in it can split a header
    /// or reorder what a page or an email shows.
    package static func host(ofContinueURL string: String) -> String? {
        guard string.utf8.count <= 2048, string.unicodeScalars.allSatisfy({ (0x21..<0x7F).contains($0.value) }),
            let components = URLComponents(string: string),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        switch scheme {
        case "https": return host
        case "http" where host == "localhost" || host == "127.0.0.1": return host
        default: return nil
        }
    }

    /// `com.example.app`: two or more dot-separated identifiers of letters, digits and underscores
    /// (hyphens too, which iOS bundle ids allow), each starting with a letter or digit.
    /// A request meant for an app only: it names one and asks for the code to be handled in the app. Its link,
    /// opened where no app took it, gets the "open in the app" page rather than a redirect to `continueURL`.
    package var isForAppOnly: Bool {
        canHandleCodeInApp && (iOSBundleID != nil || androidPackageName != nil)
    }

    package static func isReverseDNS(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= 255, parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }
        }
    }

    /// A version code or name such as `12` or `1.2.3`; anything else is dropped rather than carried into links.
    package static func isVersion(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 32 && value.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." }
    }
}

extension Unicode.Scalar {
    package var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
