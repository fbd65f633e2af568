import Latchkey
import LatchkeyDomain
import Testing

@Suite struct ActionCodeSettingsTests {
    let domains: Set<String> = ["app.example.com", "localhost", "127.0.0.1"]

    @Test(arguments: ["https://app.example.com", "https://APP.example.com/x?y=1#z", "http://localhost:3000/", "http://127.0.0.1/finish"])
    func acceptsAuthorizedContinueURLs(_ url: String) throws {
        #expect(try ActionCodeSettings(continueURL: url, authorizedDomains: domains).continueURL == url)
    }

    @Test(arguments: [
        (nil, SignInError.missingContinueURI), ("", .missingContinueURI), ("app.example.com/x", .invalidContinueURI),
        ("javascript:alert(1)", .invalidContinueURI), ("https://a:b@app.example.com/", .invalidContinueURI),
        ("https://app.example.com/\n", .invalidContinueURI), ("https://app.example.com/ x", .invalidContinueURI),
        ("http://app.example.com/", .invalidContinueURI), ("https://other.example.com/", .unauthorizedDomain),
        ("https://www.app.example.com/", .unauthorizedDomain),
        ("https://app.example.com/\u{202E}lmth.exe", .invalidContinueURI), ("https://app.example.com/\u{85}", .invalidContinueURI),
    ] as [(String?, SignInError)])
    func refusesBadContinueURLs(_ url: String?, _ error: SignInError) {
        #expect(throws: error) { try ActionCodeSettings(continueURL: url, authorizedDomains: domains) }
    }

    @Test(arguments: ["com.example.app", "com.example.my-app", "io.app_1.x"])
    func acceptsReverseDNSIdentifiers(_ id: String) throws {
        let apps = AppsConfiguration(
            ios: [.init(teamID: "ABCDE12345", bundleID: id)], android: [.init(packageName: id, sha256CertFingerprints: [])])
        let settings = try ActionCodeSettings(
            continueURL: "https://app.example.com", iOSBundleID: id, androidPackageName: id, authorizedDomains: domains, apps: apps)
        #expect(settings.iOSBundleID == id && settings.androidPackageName == id)
    }

    @Test(arguments: ["app", "com..example", ".com.example", "com.example.", "com.exa mple", "com.example/evil", "-com.example"])
    func refusesMalformedIdentifiers(_ id: String) {
        #expect(throws: SignInError.invalidIOSBundleID) {
            try ActionCodeSettings(continueURL: "https://app.example.com", iOSBundleID: id, authorizedDomains: domains)
        }
        #expect(throws: SignInError.invalidAndroidPackageName) {
            try ActionCodeSettings(continueURL: "https://app.example.com", androidPackageName: id, authorizedDomains: domains)
        }
    }

    @Test func wellFormedAppsThatAreNotConfiguredAreRefused() {
        #expect(throws: SignInError.unlistedIOSBundleID) {
            try ActionCodeSettings(continueURL: "https://app.example.com", iOSBundleID: "com.attacker.app", authorizedDomains: domains)
        }
        #expect(throws: SignInError.unlistedAndroidPackageName) {
            try ActionCodeSettings(continueURL: "https://app.example.com", androidPackageName: "com.attacker.app", authorizedDomains: domains)
        }
    }
}
