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
}
