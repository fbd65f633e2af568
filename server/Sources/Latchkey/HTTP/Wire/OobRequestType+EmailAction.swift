import LatchkeyDomain
import LatchkeyWire

extension OobRequestType {
    init(_ action: EmailAction) {
        self =
            switch action {
            case .signIn: .emailSignIn
            case .resetPassword: .passwordReset
            case .verifyEmail: .verifyEmail
            case .verifyAndChangeEmail: .verifyAndChangeEmail
            case .recoverEmail: .recoverEmail
            }
    }
}

extension EmailAction {
    /// The action a `sendOobCode` request type asks for; nil for the undo of an address change, which is never asked for.
    init?(_ requestType: OobRequestType) {
        switch requestType {
        case .emailSignIn: self = .signIn
        case .passwordReset: self = .resetPassword
        case .verifyEmail: self = .verifyEmail
        case .verifyAndChangeEmail: self = .verifyAndChangeEmail
        case .recoverEmail: return nil
        }
    }
}
