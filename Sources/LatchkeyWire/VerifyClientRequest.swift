/// Firebase's `VerifyIosClientRequest` (`v1 accounts:verifyClient`): the first step of an iOS app's proof that a text
/// is asked for by the real app (firebase-ios-sdk `VerifyClientRequest`, sent by `PhoneAuthProvider.verifyClient`).
///
/// `appToken` is the app's APNs device token in uppercase hexadecimal (`AuthAPNSToken.string`); `isSandbox` is sent,
/// as `true`, only for a token of Apple's development environment (the app's `aps-environment` entitlement).
public struct VerifyClientRequest: Sendable, Codable, Equatable {
    public var appToken: String?
    public var isSandbox: Bool?
    public var tenantId: String?

    public init(appToken: String?, isSandbox: Bool? = nil, tenantId: String? = nil) {
        self.appToken = appToken
        self.isSandbox = isSandbox
        self.tenantId = tenantId
    }
}
