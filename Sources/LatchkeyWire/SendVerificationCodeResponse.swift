/// Firebase's answer to `accounts:sendVerificationCode`: the handle of the texted code, sent back with it.
public struct SendVerificationCodeResponse: Sendable, Codable, Equatable {
    public var sessionInfo: String

    public init(sessionInfo: String) {
        self.sessionInfo = sessionInfo
    }
}
