/// Firebase's `VerifyIosClientResponse`: the receipt the silent push will carry with its secret, and how long the app
/// should wait for that push before it gives up on it.
///
/// `suggestedTimeout` is seconds as a string, Google's JSON form of an `int64`: firebase-ios-sdk's
/// `VerifyClientResponse` reads it only as a string (`Double(string)`), and treats an answer without it as broken.
public struct VerifyClientResponse: Sendable, Codable, Equatable {
    public var receipt: String
    public var suggestedTimeout: String

    public init(receipt: String, suggestedTimeout: String) {
        self.receipt = receipt
        self.suggestedTimeout = suggestedTimeout
    }
}
