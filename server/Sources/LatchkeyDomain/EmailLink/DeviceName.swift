/// The browser and platform a User-Agent names, as one of a fixed set of names ("Firefox" on "Android").
///
/// A sign-in email says which device asked for it. Showing the User-Agent itself would let anyone put words of their
/// own ("If this wasn't you, call …") into a genuine email, so only names from these lists ever reach it.
package struct DeviceName: Sendable, Equatable {
    package var browser: String?
    package var platform: String?

    package init(browser: String? = nil, platform: String? = nil) {
        self.browser = browser
        self.platform = platform
    }

    /// Recognises `userAgent`; what it does not recognise stays nil.
    package init(userAgent: String?) {
        guard let userAgent else { return }
        browser = Self.browsers.first { marker, _ in userAgent.contains(marker) }?.name
        platform = Self.platforms.first { marker, _ in userAgent.contains(marker) }?.name
    }

    /// Checked in order: Chromium-based browsers name Chrome and Safari too, and Chrome names Safari.
    private static let browsers: [(marker: String, name: String)] = [
        ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("OPiOS/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"), ("YaBrowser/", "Yandex Browser"), ("Vivaldi/", "Vivaldi"),
        ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Version/", "Safari"),
    ]

    /// Checked in order: Android user agents name Linux, iPhones name "like Mac OS X".
    private static let platforms: [(marker: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
        ("Macintosh", "Mac"), ("Linux", "Linux"),
    ]
}
