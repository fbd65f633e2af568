import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// Universal Links and App Links: the association files, checked against the formats Apple and Google document,
/// and send requests limited to the configured apps.
@Suite struct AppLinksTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static var apps: [String: Any] {
        [
            "ios": [
                ["teamId": "ABCDE12345", "bundleId": "com.example.ios", "appStoreId": "1234567890"],
                ["teamId": "ZYXWV98765", "bundleId": "com.example.ios.beta"],
            ],
            "android": [["packageName": "com.example.android", "sha256CertFingerprints": [fingerprint.lowercased()], "minimumVersion": "12"]],
        ]
    }

    @Test(arguments: ["/.well-known/apple-app-site-association", "/apple-app-site-association"])
    func appleAppSiteAssociationNamesEveryIOSAppForTheActionPath(_ path: String) async throws {
        try await withApp(["apps": Self.apps]) { client, _, _ in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.headers[.cacheControl] == "public, max-age=3600")
            #expect(response.headers[.location] == nil)
            let json = try response.json
            // https://developer.apple.com/documentation/bundleresources/applinks: details[] of appIDs and components.
            let details = try #require((json["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(details.map { $0["appIDs"] as? [String] } == [["ABCDE12345.com.example.ios"], ["ZYXWV98765.com.example.ios.beta"]])
            for detail in details {
                let components = try #require(detail["components"] as? [[String: Any]])
                #expect(components.count == 1 && components[0]["/"] as? String == "/__/auth/action*")
                #expect(Set(detail.keys) == ["appIDs", "components"])
            }
            let credentials = try #require(json["webcredentials"] as? [String: Any])
            #expect(credentials["apps"] as? [String] == ["ABCDE12345.com.example.ios", "ZYXWV98765.com.example.ios.beta"])
        }
    }

    @Test func assetLinksDelegateLinkHandlingToEveryAndroidApp() async throws {
        try await withApp(["apps": Self.apps]) { client, _, _ in
            let response = try await client.execute(uri: "/.well-known/assetlinks.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.headers[.cacheControl] == "public, max-age=3600")
            // https://developers.google.com/digital-asset-links/v1/getting-started: a list of statements.
            let statements = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
            #expect(statements.count == 1)
            #expect(statements[0]["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
            let target = try #require(statements[0]["target"] as? [String: Any])
            #expect(target["namespace"] as? String == "android_app")
            #expect(target["package_name"] as? String == "com.example.android")
            #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
        }
    }

    @Test(arguments: ["/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json"])
    func withoutAppsTheFilesAreAbsent(_ path: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .notFound)
            #expect(response.errorMessage == "Not Found")
        }
    }

    static let sendRefusals: [(String, String)] = [
        (#""iOSBundleId":"com.other.ios""#, "INVALID_IOS_BUNDLE_ID : The iOS bundle id is not one of the project's apps (apps.ios)."),
        (#""androidPackageName":"com.other.android""#, "INVALID_ANDROID_PACKAGE_NAME : The Android package name is not one of the project's apps (apps.android)."),
        (#""iOSBundleId":"com.example.ios","androidPackageName":"com.example.ios""#, "INVALID_ANDROID_PACKAGE_NAME"),
        (#""androidInstallApp":true"#, "MISSING_ANDROID_PACKAGE_NAME"),
    ]

    @Test(arguments: sendRefusals)
    func sendRequestsMayOnlyNameConfiguredApps(_ fields: String, _ message: String) async throws {
        try await withApp(["apps": Self.apps]) { client, _, mailbox in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/",\#(fields)}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(message) == true, "\(response.text)")
            #expect(mailbox.messages().isEmpty)
        }
    }

    @Test func configuredAppsAreAcceptedAndTheirMinimumVersionFillsTheLink() async throws {
        try await withApp(["apps": Self.apps]) { client, _, mailbox in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: """
                    {"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","canHandleCodeInApp":true,
                     "iOSBundleId":"com.example.ios.beta","androidPackageName":"com.example.android"}
                    """)
            #expect(response.status == .ok)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            let query = Dictionary(uniqueKeysWithValues: (link.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["iosBundleId"] == "com.example.ios.beta" && query["androidMinimumVersion"] == "12")
        }
    }

    /// With no apps configured, a request naming one would have the landing page offer an attacker's app a live code.
    @Test(arguments: [
        (#""iOSBundleId":"com.attacker.app""#, "INVALID_IOS_BUNDLE_ID"),
        (#""canHandleCodeInApp":true,"androidPackageName":"com.attacker.app","androidInstallApp":true"#, "INVALID_ANDROID_PACKAGE_NAME"),
    ])
    func withoutConfiguredAppsRequestsNamingAnAppAreRefused(_ fields: String, _ code: String) async throws {
        try await withApp { client, workspace, mailbox in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/",\#(fields)}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(code) == true, "\(response.text)")
            let stored = try await workspace.openDatabase().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_requests") }
            #expect(stored == 0)
            #expect(mailbox.messages().isEmpty)
        }
    }
}
