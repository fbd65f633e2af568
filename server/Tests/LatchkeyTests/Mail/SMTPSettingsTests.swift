import Foundation
import Latchkey
import Testing

@Suite("SMTPSettings")
struct SMTPSettingsTests {
    /// Settings that pass; each case changes one thing.
    static func settings(
        url: String = "smtp://mail.example.com:587", tls: SMTPSettings.TLSMode = .starttls, _ change: (inout SMTPSettings) -> Void = { _ in }
    ) -> SMTPSettings {
        var settings = SMTPSettings(url: url, tls: tls, envelopeFrom: "no-reply@example.com")
        change(&settings)
        return settings
    }

    @Test(arguments: [
        ("STARTTLS to a remote relay", settings(), [String]()),
        ("implicit TLS with smtps", settings(url: "smtps://mail.example.com:465", tls: .implicit), []),
        ("clear text to localhost", settings(url: "smtp://localhost:25", tls: .none), []),
        ("clear text to 127.0.0.1", settings(url: "smtp://127.0.0.1:2525", tls: .none), []),
        ("clear text to ::1", settings(url: "smtp://[::1]:2525", tls: .none), []),
        ("clear text to a remote relay", settings(tls: .none), ["tls"]),
        ("clear text to a remote relay, allowed", settings(tls: .none) { $0.allowInsecure = true }, []),
        ("smtps with STARTTLS", settings(url: "smtps://mail.example.com:465"), ["tls"]),
        ("smtp with implicit TLS", settings(tls: .implicit), ["tls"]),
        ("another scheme", settings(url: "http://mail.example.com"), ["url"]),
        ("credentials in the URL", settings(url: "smtp://user:pw@mail.example.com"), ["url"]),
        ("a path in the URL", settings(url: "smtp://mail.example.com/helo"), ["url"]),
        ("username without password", settings { $0.username = "latchkey" }, ["username"]),
        ("missing CA file", settings { $0.caFile = "/nonexistent/ca.pem" }, ["caFile"]),
        ("HELO name with a slash", settings { $0.heloName = "a/b" }, ["heloName"]),
        ("bad envelope sender", settings { $0.envelopeFrom = "not an address" }, ["envelopeFrom"]),
        ("no workers", settings { $0.workers = 0 }, ["workers"]),
        ("no timeout", settings { $0.timeoutSeconds = 0 }, ["timeoutSeconds"]),
    ])
    func namesEachProblemBySetting(_ label: String, _ settings: SMTPSettings, _ expected: [String]) {
        #expect(settings.problems.map(\.setting) == expected, "\(label)")
    }

    @Test func theDescriptionNeverShowsThePassword() {
        let settings = Self.settings {
            $0.username = "latchkey"
            $0.password = "s3cret"
        }
        #expect(settings.description == "smtp://mail.example.com:587 (tls starttls, user latchkey, 2 workers, timeout 30 s)")
    }

    @Test func theHELONameBecomesTheURLPath() {
        #expect(Self.settings { $0.heloName = "auth.example.com" }.curlURL == "smtp://mail.example.com:587/auth.example.com")
        #expect(Self.settings(url: "smtp://mail.example.com:587/").curlURL == "smtp://mail.example.com:587")
    }

    @Test func theTransportRefusesInvalidSettingsWithEveryProblem() {
        let settings = Self.settings(tls: .none) { $0.workers = 0 }
        #expect {
            _ = try CurlSMTPTransport(settings: settings)
        } throws: { error in
            (error as? SMTPSettings.InvalidSettings)?.problems.map(\.setting) == ["tls", "workers"]
        }
    }
}
