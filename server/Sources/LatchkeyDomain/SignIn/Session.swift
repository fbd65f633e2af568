import Foundation

/// What a successful sign-in or refresh hands back: a signed ID token and the next refresh token.
package struct Session: Sendable {
    package var account: Account
    package var idToken: String
    package var refreshToken: String
    package var expiresIn: Int
    package var isNewUser: Bool
}

/// A transaction's verdict. Refusals are returned rather than thrown so that what they record
/// (a mismatch count, a consumed code, a revoked chain) commits before the error reaches the caller.
package enum Verdict<Value: Sendable>: Sendable {
    case accepted(Value)
    case refused(SignInError)

    /// The refusal, if any.
    package var refusal: SignInError? {
        if case .refused(let error) = self { error } else { nil }
    }

    func map<Other: Sendable>(_ transform: (Value) -> Other) -> Verdict<Other> {
        switch self {
        case .accepted(let value): .accepted(transform(value))
        case .refused(let error): .refused(error)
        }
    }

    func asyncMap<Other: Sendable>(_ transform: (Value) async throws -> Other) async rethrows -> Verdict<Other> {
        switch self {
        case .accepted(let value): .accepted(try await transform(value))
        case .refused(let error): .refused(error)
        }
    }

    package func get() throws(SignInError) -> Value {
        switch self {
        case .accepted(let value): value
        case .refused(let error): throw error
        }
    }
}
