import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct AppsConfigurationTests {
    @Test func appsAreReadWithTheirDefaultsAndNormalizedFingerprints() async throws {
        try await withWorkspace { workspace in
            let fingerprint = Array(repeating: "ab", count: 32).joined(separator: ":")
            let configuration = try await workspace.configuration([
                "apps": [
                    "ios": [
                        [
                            "teamId": "ABCDE12345", "bundleId": "com.example.ios", "appStoreId": 987_654_321,
                            "clientId": "123-abc.apps.googleusercontent.com", "googleAppId": "1:123:ios:abc",
                        ]
                    ],
                    "android": [["packageName": "com.example.android", "sha256CertFingerprints": [fingerprint]]],
                ]
            ])
            #expect(
                configuration.apps.ios == [
                    .init(
                        teamID: "ABCDE12345", bundleID: "com.example.ios", appStoreID: "987654321", clientID: "123-abc.apps.googleusercontent.com",
                        googleAppID: "1:123:ios:abc")
                ])
            #expect(configuration.apps.android == [.init(packageName: "com.example.android", sha256CertFingerprints: [fingerprint.uppercased()])])
            #expect(try await workspace.configuration().apps == AppsConfiguration())
            #expect(try await workspace.configuration(["apps.ios": [String]()]).apps == AppsConfiguration())
        }
    }

    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// The `apps` section as JSON text (Sendable, unlike `[String: Any]`), and the start of the expected problem.
    static let problems: [(String, String)] = [
        (#"{"ios":[{"teamId":"abcde12345","bundleId":"com.example.ios"}]}"#, "apps.ios.0.teamId:"),
        (#"{"ios":[{"teamId":"ABCDE1234","bundleId":"com.example.ios"}]}"#, "apps.ios.0.teamId:"),
        (#"{"ios":[{"teamId":"ABCDE12345","bundleId":"example"}]}"#, "apps.ios.0.bundleId:"),
        (#"{"ios":[{"teamId":"ABCDE12345"}]}"#, "apps.ios.0.bundleId:"),
        (#"{"ios":[{"teamId":"ABCDE12345","bundleId":"com.example.ios","appStoreId":"id123"}]}"#, "apps.ios.0.appStoreId:"),
        (#"{"ios":[{"teamId":"ABCDE12345","bundleId":"com.example.ios","clientId":"a b"}]}"#, "apps.ios.0.clientId:"),
        (
            #"{"ios":[{"teamId":"ABCDE12345","bundleId":"com.example.ios"},{"teamId":"ABCDE12345","bundleId":"com.example.ios"}]}"#,
            "apps.ios: lists the same app twice"
        ),
        (#"{"android":[{"packageName":"com.example.android","sha256CertFingerprints":["AB:CD"]}]}"#, "apps.android.0.sha256CertFingerprints:"),
        (#"{"android":[{"packageName":"com.example.android"}]}"#, "apps.android.0.sha256CertFingerprints:"),
        (#"{"android":[{"packageName":"com.1example.android","sha256CertFingerprints":["\#(fingerprint)"]}]}"#, "apps.android.0.packageName:"),
        (#"{"android":[{"packageName":"com.example-app","sha256CertFingerprints":["\#(fingerprint)"]}]}"#, "apps.android.0.packageName:"),
        (#"{"android":[{"packageName":"com.example.android","sha256CertFingerprints":["\#(fingerprint)"],"minimumVersion":"1 2"}]}"#,
         "apps.android.0.minimumVersion:"),
        (#"{"android":["com.example.android"]}"#, "apps.android: must be a list of objects"),
    ]

    @Test(arguments: problems)
    func badAppsAreReportedWithTheirKey(_ json: String, _ expected: String) async throws {
        let apps = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        try await withWorkspace { workspace in
            do {
                _ = try await workspace.configuration(["apps": apps])
                Issue.record("expected a problem with \(expected)")
            } catch let problems as ConfigProblems {
                #expect(problems.messages.contains { $0.hasPrefix(expected) }, "\(problems)")
            }
        }
    }
}
