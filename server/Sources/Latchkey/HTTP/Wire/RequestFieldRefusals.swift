import LatchkeyDomain
import LatchkeyWire

/// A wire request the HTTP layer decodes, with the Identity Toolkit code each of its fields is refused with.
///
/// Decoding refuses a field only for its JSON type (and the request and grant types also when missing), before any
/// other check, as Firebase's own parser does; emptiness, syntax and policy are checked afterwards by the controllers
/// and the domain. This file is the one place that says which code a refused field earns.
package protocol RefusedFields: Decodable {
    /// The refusal for the named field, when it is missing (`isMissing`) or of the wrong type; nil if that field is
    /// never refused.
    static func refusal(ofField field: String, isMissing: Bool) -> SignInError?
}

extension RefusedFields {
    /// The refusal a decoding error stands for: its field's code, or for a field without one Google's generic
    /// "Invalid JSON payload" answer, naming the field.
    package static func refusal(for error: DecodingError) -> any Error {
        let (path, isMissing): ([any CodingKey], Bool) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], true)
            case .valueNotFound(_, let context): (context.codingPath, true)
            case .typeMismatch(_, let context), .dataCorrupted(let context): (context.codingPath, false)
            @unknown default: ([], false)
            }
        if let field = path.first?.stringValue, let refusal = refusal(ofField: field, isMissing: isMissing) { return refusal }
        return APIError.invalidJSON("Invalid value at '\(path.map(\.stringValue).joined(separator: "."))'.")
    }
}

extension SendOobCodeRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "requestType": isMissing ? .missingRequestType : .invalidRequestType
        case "email", "newEmail": .invalidEmail
        case "idToken": .invalidIDToken
        case "continueUrl": .invalidContinueURI
        case "iOSBundleId": .invalidIOSBundleID
        case "androidPackageName": .invalidAndroidPackageName
        default: nil
        }
    }
}

extension VerifyClientRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "appToken" ? .invalidAppCredential("The APNs device token must be a string.") : nil
    }
}

extension EmailLinkSigninRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "email": .invalidEmail
        case "oobCode": .invalidOOBCode
        case "idToken": .invalidIDToken
        default: nil
        }
    }
}

extension ResetPasswordRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "oobCode": .invalidOOBCode
        case "newPassword": .weakPassword
        default: nil
        }
    }
}

extension SignupNewUserRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "email": .invalidEmail
        case "password": .missingPassword
        case "idToken": .invalidIDToken
        default: nil
        }
    }
}

extension VerifyPasswordRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "email": .invalidEmail
        case "password": .invalidPassword
        default: nil
        }
    }
}

extension CreateAuthUriRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "identifier" ? .invalidIdentifier : nil
    }
}

extension GetAccountInfoRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "idToken" ? .invalidIDToken : nil
    }
}

extension SetAccountInfoRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "idToken": .invalidIDToken
        case "oobCode": .invalidOOBCode
        case "email": .invalidEmail
        case "password": .weakPassword
        case "displayName", "photoUrl": .invalidProfileAttribute
        case "customAttributes": .invalidClaims
        default: nil
        }
    }
}

extension DeleteAccountRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "idToken" ? .invalidIDToken : nil
    }
}

extension CancelRecoverEmailRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "idToken" ? .invalidIDToken : nil
    }
}

extension CreateSessionCookieRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "idToken" ? .invalidIDToken : nil
    }
}

extension CreateAccountRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "localId": .invalidLocalID
        case "email": .invalidEmail
        case "password": .weakPassword
        case "displayName", "photoUrl": .invalidProfileAttribute
        default: nil
        }
    }
}

extension GrantTokenRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "grant_type": isMissing ? .missingGrantType : .invalidGrantType
        case "refresh_token": .invalidRefreshToken
        default: nil
        }
    }
}

extension SignInWithIdpRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "requestUri": .invalidRequestURI
        case "idToken": .invalidIDToken
        default: nil
        }
    }
}

extension StartMfaEnrollmentRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "idToken" ? .invalidIDToken : nil
    }
}

extension FinalizeMfaEnrollmentRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "idToken": .invalidIDToken
        case "displayName": .invalidProfileAttribute
        default: nil
        }
    }
}

extension WithdrawMfaRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "idToken": .invalidIDToken
        case "mfaEnrollmentId": .mfaEnrollmentNotFound
        default: nil
        }
    }
}

extension StartMfaSignInRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "mfaPendingCredential": .invalidMFAPendingCredential
        case "mfaEnrollmentId": .mfaEnrollmentNotFound
        default: nil
        }
    }
}

extension FinalizeMfaSignInRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "mfaPendingCredential": .invalidMFAPendingCredential
        case "mfaEnrollmentId": .mfaEnrollmentNotFound
        default: nil
        }
    }
}

extension UploadAccountRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? { nil }
}

extension SignInWithCustomTokenRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "token" ? .invalidCustomToken("The custom token must be a string.") : nil
    }
}

extension RevokeTokenRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "idToken": .invalidIDToken
        case "tokenType": .invalidArgument("tokenType must be REFRESH_TOKEN, ACCESS_TOKEN or CODE (1, 2 or 3)")
        case "token": .invalidArgument("token must be a string")
        default: nil
        }
    }
}

extension BatchDeleteAccountsRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? { nil }
}

extension SendVerificationCodeRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        field == "phoneNumber" ? .invalidPhoneNumber : nil
    }
}

extension SignInWithPhoneNumberRequest: RefusedFields {
    package static func refusal(ofField field: String, isMissing: Bool) -> SignInError? {
        switch field {
        case "sessionInfo": .invalidSessionInfo
        case "code": .invalidCode
        case "phoneNumber": .invalidPhoneNumber
        case "temporaryProof": .invalidTemporaryProof
        case "idToken": .invalidIDToken
        default: nil
        }
    }
}
