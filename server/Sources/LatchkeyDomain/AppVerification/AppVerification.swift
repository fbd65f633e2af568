import Foundation
import LatchkeyWire

/// The proof, before a text is sent, that the request comes from the real app and not from a script pumping texts.
///
/// Firebase's SDKs bring one of two proofs (docs/app-verification.md, "App verification", says what each sends and when):
/// - an iOS app's receipt and secret: `accounts:verifyClient` (`verifyClient` here) takes the app's APNs device token,
///   keeps a receipt with a secret, and sends the secret to that device in a silent push; the app then sends both as
///   `iosReceipt` and `iosSecret`. Only an instance of the app the operator's APNs key can push to gets the secret.
/// - a captcha token (`recaptchaToken`, or a real reCAPTCHA Enterprise `captchaResponse`), checked with the provider
///   under the operator's secret.
///
/// `check` is called at the start of every flow that sends a text, before anything is written. With neither APNs nor a
/// captcha provider configured it admits every request (a start-up line says app verification is off) and texts are
/// held back by the abuse limits alone. A request that brings no proof at all (what firebase-ios-sdk sends with
/// `isAppVerificationDisabledForTesting`) is admitted in development mode only. [L]
package struct AppVerification: Sendable {
    /// How long a receipt may wait for its send. firebase-ios-sdk keeps its credential in the keychain and presents it
    /// again on later sends; a used or expired one gets `INVALID_APP_CREDENTIAL`, on which the SDK clears it and asks
    /// `verifyClient` for a new one once. [L]
    package static let receiptLifetime: TimeInterval = 3600
    /// Seconds the app waits for the silent push before it gives up on it (`suggestedTimeout`). [L]
    package static let pushWaitSeconds = 10
    /// What the SDKs put in `captchaResponse` when no reCAPTCHA Enterprise token was made (firebase-js-sdk's
    /// `FAKE_TOKEN`, firebase-ios-sdk's `fakeCaptchaResponse`): no proof.
    static let noRecaptcha = "NO_RECAPTCHA"

    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    let limiter: RateLimiter
    let push: (any SilentPushSender)?
    let captcha: (any CaptchaVerifier)?
    /// The bundle ids of `apps.ios`: the topics a push may go to.
    let iosBundleIDs: [String]
    /// Development mode: a request without any proof is admitted.
    let admitsRequestsWithoutProof: Bool

    package init(
        store: any Store, secret: ServerSecret, clock: any WallClock, limiter: RateLimiter, push: (any SilentPushSender)?,
        captcha: (any CaptchaVerifier)?, iosBundleIDs: [String], admitsRequestsWithoutProof: Bool
    ) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.limiter = limiter
        self.push = push
        self.captcha = captcha
        self.iosBundleIDs = iosBundleIDs
        self.admitsRequestsWithoutProof = admitsRequestsWithoutProof
    }

    /// Whether every request is admitted, since neither APNs nor a captcha provider is configured.
    package var isOff: Bool { push == nil && captcha == nil }

    /// Admits a request to text a code, or refuses it with Firebase's code: a live, unused receipt whose secret matches
    /// (claimed, so that no two sends share it), or a captcha token the provider passes.
    package func check(_ request: SendVerificationCodeRequest, by caller: Caller) async throws {
        guard !isOff else { return }
        if request.iosReceipt != nil || request.iosSecret != nil {
            guard let receipt = nonEmpty(request.iosReceipt), let appSecret = nonEmpty(request.iosSecret) else {
                throw SignInError.missingAppCredential
            }
            let (receiptHash, secretHash) = (secret.hash(receipt, for: .appReceipt), secret.hash(appSecret, for: .appSecret))
            let now = clock.now
            let claimed = try await store.write { try await $0.claimAppReceipt(receiptHash: receiptHash, secretHash: secretHash, at: now) }
            guard claimed else { throw SignInError.invalidAppCredential("The receipt is unknown, used or expired, or its secret is wrong.") }
            return
        }
        if let token = captchaToken(of: request) {
            guard let captcha else { throw SignInError.captchaCheckFailed("No captcha provider is configured (appVerification.captcha).") }
            if case .failed(let reason) = try await captcha.verify(token, remoteIP: caller.requester.ipAddress) {
                throw SignInError.captchaCheckFailed(reason)
            }
            return
        }
        guard admitsRequestsWithoutProof else { throw SignInError.missingAppCredential }
    }

    /// `accounts:verifyClient`: keeps a receipt with a secret and sends the secret to the device in a silent push, then
    /// answers the receipt. `bundleID` is the app's `X-Ios-Bundle-Identifier`, which every request of
    /// firebase-ios-sdk carries; without it the one app of `apps.ios` is meant. Counted per client address, since
    /// each call makes a push.
    package func verifyClient(_ request: VerifyClientRequest, bundleID: String?, by caller: Caller) async throws -> VerifyClientResponse {
        guard let push else { throw SignInError.pushVerificationOff }
        guard let deviceToken = nonEmpty(request.appToken) else { throw SignInError.missingAppToken }
        guard Self.isDeviceToken(deviceToken) else { throw SignInError.invalidAppCredential("The APNs device token must be hexadecimal.") }
        let topic = try topic(for: bundleID)
        try await limiter.admit(caller.limits([.init(.verifyClientPerIP, caller.ipAddress)]), requester: caller.requester)
        let (receipt, appSecret) = (ServerSecret.makeToken(), ServerSecret.makeToken())
        let stored = AppReceipt(
            receiptHash: secret.hash(receipt, for: .appReceipt), secretHash: secret.hash(appSecret, for: .appSecret),
            expiresAt: clock.now.addingTimeInterval(Self.receiptLifetime))
        try await store.write { try await $0.insert(stored) }
        do {
            try await push.send(
                AppCredentialPush(deviceToken: deviceToken, isSandbox: request.isSandbox ?? false, topic: topic, receipt: receipt, secret: appSecret))
        } catch {
            switch error {
            case .deviceTokenRefused(let reason): throw SignInError.invalidAppCredential("APNs refused the device token: \(reason)")
            case .unavailable: throw AppVerificationUnavailable(service: "APNs")
            }
        }
        return VerifyClientResponse(receipt: receipt, suggestedTimeout: String(Self.pushWaitSeconds))
    }

    /// The app a push goes to: the one the request names, which must be listed, or the only listed one.
    private func topic(for bundleID: String?) throws -> String {
        if let bundleID = nonEmpty(bundleID) {
            guard iosBundleIDs.contains(bundleID) else { throw SignInError.unlistedIOSBundleID }
            return bundleID
        }
        guard iosBundleIDs.count == 1, let only = iosBundleIDs.first else { throw SignInError.missingIOSBundleID }
        return only
    }

    /// The captcha token a request carries: reCAPTCHA v2's `recaptchaToken` (also what a custom verifier of hCaptcha or
    /// Turnstile hands the JS SDK), else a `captchaResponse` that is a real token rather than the SDKs' placeholder.
    private func captchaToken(of request: SendVerificationCodeRequest) -> String? {
        if let token = nonEmpty(request.recaptchaToken) { return token }
        guard let response = nonEmpty(request.captchaResponse), response != Self.noRecaptcha else { return nil }
        return response
    }

    /// APNs device tokens are 32 bytes today; Apple has said they may grow, so anything from 16 to 200 bytes in hex.
    static func isDeviceToken(_ token: String) -> Bool {
        (32...400).contains(token.utf8.count) && token.utf8.count.isMultiple(of: 2) && token.allSatisfy(\.isHexDigit)
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
