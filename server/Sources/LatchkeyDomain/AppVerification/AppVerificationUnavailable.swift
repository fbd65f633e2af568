/// The party app verification depends on (APNs, the captcha provider) gave no usable answer within its deadline: the
/// request is refused as Google refuses one its backend cannot serve now (503 `UNAVAILABLE`), never with a 500 or a
/// hang, and nothing is sent.
package struct AppVerificationUnavailable: Error, Sendable, Equatable {
    /// `"APNs"` or `"captcha"`.
    package var service: String

    package init(service: String) {
        self.service = service
    }
}
