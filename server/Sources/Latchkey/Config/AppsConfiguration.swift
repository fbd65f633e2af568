/// The mobile apps that open sign-in links themselves (Universal Links on iOS, App Links on Android).
///
/// - `apps.ios` (list of objects, default `[]`): each `{"teamId", "bundleId", "appStoreId", "clientId", "googleAppId"}`.
///   - `teamId` (string, required): the Apple developer team id, 10 uppercase letters or digits.
///   - `bundleId` (string, required): the app's bundle id, reverse DNS (`com.example.app`).
///   - `appStoreId` (string or integer of digits, optional): the App Store id, for the "get the app" link.
///   - `clientId`, `googleAppId` (strings, optional): the `CLIENT_ID` and `GOOGLE_APP_ID` of the app's
///     `GoogleService-Info.plist`. The hosted sign-in page (`/__/auth/handler`) hands a provider's answer only to the
///     URL scheme one of them makes (the reversed client id, or `app-` and the app id with `:` as `-`), so an app
///     that signs in with providers on iOS needs one.
/// - `apps.android` (list of objects, default `[]`): each `{"packageName", "sha256CertFingerprints", "minimumVersion"}`.
///   - `packageName` (string, required): the application id (`com.example.app`).
///   - `sha256CertFingerprints` (list of strings, required): SHA-256 fingerprints of the signing certificates,
///     32 colon-separated hex bytes each (`14:6D:E9:…`), as `keytool -list -v` or the Play Console shows them.
///   - `minimumVersion` (string, optional): the version code links ask for when the request names none.
///
/// Listed iOS apps are published in `/.well-known/apple-app-site-association`, Android apps in
/// `/.well-known/assetlinks.json`. A `sendOobCode` request may only name listed apps; with none listed, none.
package struct AppsConfiguration: Sendable, Equatable {
    /// One iOS app allowed to open `/__/auth/action` links.
    package struct IOSApp: Sendable, Equatable {
        package var teamID: String
        package var bundleID: String
        package var appStoreID: String?
        package var clientID: String?
        package var googleAppID: String?

        package init(teamID: String, bundleID: String, appStoreID: String? = nil, clientID: String? = nil, googleAppID: String? = nil) {
            self.teamID = teamID
            self.bundleID = bundleID
            self.appStoreID = appStoreID
            self.clientID = clientID
            self.googleAppID = googleAppID
        }

        /// `TEAMID.bundle.id`, the form Apple's association file names apps by.
        package var appID: String { "\(teamID).\(bundleID)" }
    }

    /// One Android app allowed to open `/__/auth/action` links.
    package struct AndroidApp: Sendable, Equatable {
        package var packageName: String
        package var sha256CertFingerprints: [String]
        package var minimumVersion: String?

        package init(packageName: String, sha256CertFingerprints: [String], minimumVersion: String? = nil) {
            self.packageName = packageName
            self.sha256CertFingerprints = sha256CertFingerprints
            self.minimumVersion = minimumVersion
        }
    }

    package var ios: [IOSApp]
    package var android: [AndroidApp]

    package init(ios: [IOSApp] = [], android: [AndroidApp] = []) {
        self.ios = ios
        self.android = android
    }

    package func iOSApp(bundleID: String) -> IOSApp? { ios.first { $0.bundleID == bundleID } }

    package func androidApp(packageName: String) -> AndroidApp? { android.first { $0.packageName == packageName } }

    init(_ read: inout ConfigSectionReader) {
        ios = read.objectList("apps.ios", fields: ["teamId", "bundleId", "appStoreId", "clientId", "googleAppId"]).compactMap { Self.iOSApp(&read, $0) }
        android = read.objectList("apps.android", fields: ["packageName", "sha256CertFingerprints", "minimumVersion"]).compactMap {
            Self.androidApp(&read, $0)
        }
        for (key, ids) in [("apps.ios", ios.map(\.bundleID)), ("apps.android", android.map(\.packageName))] where Set(ids).count != ids.count {
            read.problems.add(key, "lists the same app twice")
        }
    }

    private static func iOSApp(_ read: inout ConfigSectionReader, _ prefix: String) -> IOSApp? {
        let teamID = read.string("\(prefix).teamId") ?? ""
        let bundleID = read.string("\(prefix).bundleId") ?? ""
        let appStoreID = read.stringOrInteger("\(prefix).appStoreId")
        var isValid = true
        if !(teamID.count == 10 && teamID.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })) {
            read.problems.add("\(prefix).teamId", "must be the 10-character Apple team id (uppercase letters and digits)")
            isValid = false
        }
        if !ActionCodeSettings.isReverseDNS(bundleID) {
            read.problems.add("\(prefix).bundleId", "must be a reverse-DNS bundle id such as com.example.app")
            isValid = false
        }
        if let appStoreID, !((1...20).contains(appStoreID.count) && appStoreID.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })) {
            read.problems.add("\(prefix).appStoreId", "must be the numeric App Store id")
            isValid = false
        }
        let clientID = read.string("\(prefix).clientId")
        let googleAppID = read.string("\(prefix).googleAppId")
        for (key, value) in [("clientId", clientID), ("googleAppId", googleAppID)] {
            if let value, ProviderHandoff.iOSScheme(clientID: key == "clientId" ? value : nil, appID: key == "googleAppId" ? value : nil) == nil {
                read.problems.add("\(prefix).\(key)", "must be the value in the app's GoogleService-Info.plist (letters, digits, . - : +)")
                isValid = false
            }
        }
        return isValid
            ? IOSApp(teamID: teamID, bundleID: bundleID, appStoreID: appStoreID, clientID: clientID, googleAppID: googleAppID) : nil
    }

    private static func androidApp(_ read: inout ConfigSectionReader, _ prefix: String) -> AndroidApp? {
        let packageName = read.string("\(prefix).packageName") ?? ""
        let fingerprints = read.stringArray("\(prefix).sha256CertFingerprints") ?? []
        let minimumVersion = read.stringOrInteger("\(prefix).minimumVersion")
        var isValid = true
        if !isAndroidPackageName(packageName) {
            read.problems.add("\(prefix).packageName", "must be an Android application id such as com.example.app")
            isValid = false
        }
        if fingerprints.isEmpty || !fingerprints.allSatisfy(isSHA256Fingerprint) {
            read.problems.add("\(prefix).sha256CertFingerprints", "must list SHA-256 fingerprints of 32 colon-separated hex bytes (AB:CD:…)")
            isValid = false
        }
        if let minimumVersion, !ActionCodeSettings.isVersion(minimumVersion) {
            read.problems.add("\(prefix).minimumVersion", "must be a version such as 12 or 1.2.3")
            isValid = false
        }
        return isValid
            ? AndroidApp(packageName: packageName, sha256CertFingerprints: fingerprints.map { $0.uppercased() }, minimumVersion: minimumVersion) : nil
    }

    /// Android's rule: two or more segments, each a letter then letters, digits or underscores.
    static func isAndroidPackageName(_ name: String) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 255, segments.count >= 2 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
            return segment.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" }
        }
    }

    /// `AB:CD:…`: 32 bytes as pairs of hex digits separated by colons.
    static func isSHA256Fingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
