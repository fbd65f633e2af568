import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// `GET /metrics` counts what happened, in Prometheus text.
@Suite struct MetricsTests {
    /// The value of the sample whose line starts with `series` (name and labels exactly as exposed).
    static func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func requestsCodesMailAndRejectionsAreCounted() async throws {
        try await withApp(["rateLimits.sendPerIP": [["limit": 2, "windowSeconds": 60]], "mail.workers": 0]) { client, _, _ in
            try await client.sendLink(to: "a@example.com")
            try await client.sendLink(to: "b@example.com")
            #expect(try await client.sendLink(to: "c@example.com").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            _ = try await client.complete(email: "a@example.com", code: "not-a-code")
            _ = try await client.execute(uri: "/nowhere", method: .get)

            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = response.text
            #expect(Self.sample(text, #"latchkey_sign_in_codes_total{outcome="issued"}"#) == 2)
            #expect(Self.sample(text, #"latchkey_sign_in_codes_total{outcome="invalid"}"#) == 1)
            #expect(Self.sample(text, #"latchkey_emails_total{outcome="queued"}"#) == 2)
            #expect(Self.sample(text, #"latchkey_rate_limit_rejections_total{rule="sendPerIP"}"#) == 1)
            #expect(Self.sample(text, "latchkey_outbox_depth") == 2)
            #expect((Self.sample(text, "latchkey_outbox_oldest_age_seconds") ?? -1) >= 0)
            #expect(
                Self.sample(text, #"latchkey_http_request_duration_seconds_count{method="POST",route="/v1/accounts:sendOobCode",status="200"}"#) == 2)
            #expect(Self.sample(text, #"latchkey_http_request_duration_seconds_count{method="GET",route="NotFound",status="404"}"#) == 1)
            #expect(!text.contains("a@example.com") && !text.contains("not-a-code"))
        }
    }

    @Test func metricsCanBeTurnedOff() async throws {
        try await withApp(["metrics.enabled": false]) { client, _, _ in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .notFound)
        }
    }
}
