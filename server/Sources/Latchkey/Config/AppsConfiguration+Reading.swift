import LatchkeyDomain

/// `apps.ios` and `apps.android` read and checked (each key's rules: `AppsConfiguration`), problems under their keys.
extension AppsConfiguration {
    init(_ read: inout ConfigSectionReader) {
        let ios = read.objectList("apps.ios", fields: ["teamId", "bundleId", "appStoreId", "clientId", "googleAppId"]).compactMap {
            Self.iOSApp(&read, $0)
        }
        let android = read.objectList("apps.android", fields: ["packageName", "sha256CertFingerprints", "minimumVersion"]).compactMap {
            Self.androidApp(&read, $0)
        }
        for (key, ids) in [("apps.ios", ios.map(\.bundleID)), ("apps.android", android.map(\.packageName))] where Set(ids).count != ids.count {
            read.problems.add(key, "lists the same app twice")
        }
        self.init(ios: ios, android: android)
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
