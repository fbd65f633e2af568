/// Firebase's answer to `mfaSignIn:start` for a phone factor: the handle of the code texted to it.
public struct StartMfaSignInResponse: Sendable, Codable, Equatable {
    public var phoneResponseInfo: PhoneSessionInfo

    public init(phoneResponseInfo: PhoneSessionInfo) {
        self.phoneResponseInfo = phoneResponseInfo
    }
}
