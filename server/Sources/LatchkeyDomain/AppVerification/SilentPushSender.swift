/// Sends the silent push that proves an iOS app instance: the receipt and its secret, to the device whose APNs token
/// `accounts:verifyClient` was given. The adapter is `APNsPushSender`, with the operator's APNs key.
package protocol SilentPushSender: Sendable {
    /// Delivers `push` to APNs, or throws `SilentPushFailure`.
    func send(_ push: AppCredentialPush) async throws(SilentPushFailure)
}

/// One silent push: where it goes and the credential it carries in `com.google.firebase.auth`.
package struct AppCredentialPush: Sendable, Equatable {
    /// The APNs device token, hexadecimal, as the app sent it.
    package var deviceToken: String
    /// Apple's development environment (`api.sandbox.push.apple.com`) rather than production.
    package var isSandbox: Bool
    /// The app's bundle id: APNs's `apns-topic`.
    package var topic: String
    package var receipt: String
    package var secret: String

    package init(deviceToken: String, isSandbox: Bool, topic: String, receipt: String, secret: String) {
        self.deviceToken = deviceToken
        self.isSandbox = isSandbox
        self.topic = topic
        self.receipt = receipt
        self.secret = secret
    }
}

/// Why a silent push was not delivered.
package enum SilentPushFailure: Error, Sendable, Equatable {
    /// APNs refused the device token for this app (`BadDeviceToken`, `Unregistered`, `DeviceTokenNotForTopic`): the
    /// app's claim, not the service, is at fault.
    case deviceTokenRefused(String)
    /// APNs is down, slow, or refuses the operator's key or topic: the operator must act, and the client may retry.
    case unavailable(String)
}
