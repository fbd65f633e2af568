import AsyncHTTPClient
import Foundation
import LatchkeyDomain
import Logging
import NIOCore
import NIOSSL

/// Sends an iOS app's silent push through APNs with the operator's key (`appVerification.apns`): `POST
/// /3/device/{token}` over HTTP/2 (AsyncHTTPClient negotiates it by ALPN, so the URL is https, including a test's
/// stub), with the provider token, `apns-topic` the app's bundle id, `apns-push-type: background` and
/// `apns-priority: 5`, as Apple requires of a push without an alert.
///
/// The payload is the one firebase-ios-sdk's `AuthNotificationManager.canHandle(notification:)` reads: the credential
/// under `com.google.firebase.auth`, next to `aps.content-available` which wakes the app.
struct APNsPushSender: SilentPushSender {
    let settings: AppVerificationConfiguration.APNs
    let token: APNsProviderToken
    let logger: Logger

    init(settings: AppVerificationConfiguration.APNs, clock: any WallClock, logger: Logger) {
        self.settings = settings
        self.token = APNsProviderToken(keyID: settings.keyID, teamID: settings.teamID, key: settings.key, clock: clock)
        self.logger = logger
    }

    /// The reasons APNs gives for a device token it will not deliver to (Apple's "Handling notification responses from
    /// APNs"): the app's claim is wrong, not the service.
    static let deviceTokenReasons: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered", "ExpiredToken"]

    /// The reasons APNs gives for a provider token it no longer takes: the next push makes a new one.
    static let providerTokenReasons: Set<String> = ["ExpiredProviderToken", "InvalidProviderToken"]

    func send(_ push: AppCredentialPush) async throws(SilentPushFailure) {
        let base = push.isSandbox ? settings.sandboxURL : settings.productionURL
        var request = HTTPClientRequest(url: base.appendingPathComponent("3/device/\(push.deviceToken)").absoluteString)
        request.method = .POST
        if let caFile = settings.caFile {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caFile)
            request.tlsConfiguration = tls
        }
        do {
            request.headers.add(name: "authorization", value: "bearer \(try token.token())")
            request.headers.add(name: "apns-topic", value: push.topic)
            request.headers.add(name: "apns-push-type", value: "background")
            request.headers.add(name: "apns-priority", value: "5")
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(Payload(push))))
        } catch {
            throw unavailable("the push could not be made")
        }
        let status: Int
        let body: Data
        do {
            let response = try await ProviderHTTPClient.shared.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
            status = Int(response.status.code)
            body = Data(buffer: try await response.body.collect(upTo: 64 * 1024))
        } catch {
            throw unavailable("no answer in time")
        }
        guard status != 200 else { return }
        let reason = (try? JSONDecoder().decode(Refusal.self, from: body))?.reason ?? "HTTP \(status)"
        if Self.deviceTokenReasons.contains(reason) { throw .deviceTokenRefused(reason) }
        if Self.providerTokenReasons.contains(reason) { token.discard() }
        throw unavailable(reason)
    }

    /// A failure the operator must look at (APNs down, the key or topic refused), logged once here.
    private func unavailable(_ reason: String) -> SilentPushFailure {
        logger.warning("APNs did not take a silent push", metadata: ["apns.reason": "\(reason)"])
        return .unavailable(reason)
    }

    /// `{"aps":{"content-available":1},"com.google.firebase.auth":{"receipt":…,"secret":…}}`.
    struct Payload: Encodable {
        struct APS: Encodable {
            let contentAvailable = 1

            enum CodingKeys: String, CodingKey { case contentAvailable = "content-available" }
        }

        struct Credential: Encodable {
            let receipt: String
            let secret: String
        }

        let aps = APS()
        let credential: Credential

        init(_ push: AppCredentialPush) {
            credential = Credential(receipt: push.receipt, secret: push.secret)
        }

        enum CodingKeys: String, CodingKey {
            case aps
            case credential = "com.google.firebase.auth"
        }
    }

    /// APNs's error body.
    struct Refusal: Decodable {
        let reason: String
    }
}
