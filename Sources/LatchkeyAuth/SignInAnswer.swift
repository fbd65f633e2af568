import Foundation
import LatchkeyWire

/// What every first-factor answer has in common: a session's tokens, or a second factor to ask for.
struct SignInAnswer {
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var mfaPendingCredential: String?
    var mfaInfo: [MfaEnrollment]?

    init(idToken: String?, refreshToken: String?, expiresIn: String?, mfaPendingCredential: String? = nil, mfaInfo: [MfaEnrollment]? = nil) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaInfo = mfaInfo
    }

    init(_ answer: SignupNewUserResponse) {
        self.init(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn)
    }

    init(_ answer: VerifyPasswordResponse) {
        self.init(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            mfaPendingCredential: answer.mfaPendingCredential, mfaInfo: answer.mfaInfo)
    }

    init(_ answer: EmailLinkSigninResponse) {
        self.init(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            mfaPendingCredential: answer.mfaPendingCredential, mfaInfo: answer.mfaInfo)
    }

    init(_ answer: SignInWithIdpResponse) {
        self.init(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            mfaPendingCredential: answer.mfaPendingCredential, mfaInfo: answer.mfaInfo)
    }

    init(_ answer: SignInWithCustomTokenResponse) {
        self.init(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            mfaPendingCredential: answer.mfaPendingCredential, mfaInfo: answer.mfaInfo)
    }

    init(_ answer: SignInWithPhoneNumberResponse) {
        self.init(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn)
    }

    init(_ answer: SetAccountInfoResponse) {
        self.init(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn)
    }

    init(_ answer: FinalizeMfaResponse) {
        self.init(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: nil)
    }

    /// The session's tokens; throws `secondFactorRequired` (with its resolver, which finishes the sign-in, or the
    /// re-authentication of `reauthenticating`) when the account asks for a second factor.
    func tokens(state: AuthState, provider: String?, reauthenticating: User? = nil) throws -> TokenSet {
        if let mfaPendingCredential {
            let resolver = MultiFactorResolver(
                state: state, pendingCredential: mfaPendingCredential, hints: (mfaInfo ?? []).map { MultiFactorInfo.make(EnrolledFactor($0)) },
                provider: provider, reauthenticating: reauthenticating)
            throw AuthError(.secondFactorRequired, message: "the account asks for a second factor", resolver: resolver)
        }
        guard let idToken, let refreshToken else { throw AuthError(.internalError, message: "the sign-in answered no session") }
        return TokenSet(idToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn)
    }
}

extension AuthState {
    /// Makes the answer's session the signed-in user.
    func finish(_ answer: SignInAnswer, provider: String?, isNewUser: Bool = false) async throws -> AuthDataResult {
        let user = try await signIn(with: try answer.tokens(state: self, provider: provider))
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: provider, isNewUser: isNewUser))
    }

    /// Proves `credential`, for the signed-in user's `idToken` when linking it to that account; with `autoCreate`
    /// false a provider's identity new to the service makes no account.
    func answer(for credential: AuthCredential, linkingTo idToken: String?, autoCreate: Bool = true) async throws -> (answer: SignInAnswer, isNewUser: Bool) {
        switch credential.proof {
        case .password(let email, let password):
            if let idToken {
                let answer: SetAccountInfoResponse = try await backend.call(
                    "v1/accounts:update", SetAccountInfoRequest(idToken: idToken, email: email, password: password, returnSecureToken: true))
                return (SignInAnswer(answer), false)
            }
            let answer: VerifyPasswordResponse = try await backend.call(
                "v1/accounts:signInWithPassword", VerifyPasswordRequest(email: email, password: password))
            return (SignInAnswer(answer), false)
        case .emailLink(let email, let link):
            // Not a link: the code the email shows for typing, which the service reads in the same field.
            let code = EmailActionLink(link)?.code ?? link.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else { throw AuthError(.missingActionCode, message: "the link holds no sign-in code") }
            let answer: EmailLinkSigninResponse = try await backend.call(
                "v1/accounts:signInWithEmailLink", EmailLinkSigninRequest(email: email, oobCode: code, idToken: idToken))
            return (SignInAnswer(answer), answer.isNewUser)
        case .phone(let phone):
            let answer: SignInWithPhoneNumberResponse = try await backend.call("v1/accounts:signInWithPhoneNumber", phone.request(linkingTo: idToken))
            // Linking a number another account has answers a proof of it, which signs in to that account instead.
            if answer.idToken == nil, let proof = answer.temporaryProof {
                throw AuthError(
                    .credentialAlreadyInUse, message: "another account has this number", serverCode: "PHONE_NUMBER_EXISTS",
                    updatedCredential: AuthCredential(PhoneAuthCredential(proof: .temporaryProof(proof, phoneNumber: answer.phoneNumber))))
            }
            return (SignInAnswer(answer), answer.isNewUser ?? false)
        case .provider, .pending, .providerResponse:
            guard let request = credential.identityProviderRequest(linkingTo: idToken, autoCreate: autoCreate) else {
                throw AuthError(.invalidCredential)
            }
            let answer: SignInWithIdpResponse = try await backend.call("v1/accounts:signInWithIdp", request)
            if answer.needConfirmation == true {
                throw AuthError(
                    .accountExistsWithDifferentCredential, message: "an account with this address signs in another way",
                    email: answer.email, updatedCredential: answer.pendingToken.map { AuthCredential(provider: credential.provider, proof: .pending(token: $0)) })
            }
            return (SignInAnswer(answer), answer.isNewUser ?? false)
        }
    }

    func signIn(with credential: AuthCredential, linkingTo idToken: String?) async throws -> AuthDataResult {
        let (answer, isNewUser) = try await answer(for: credential, linkingTo: idToken)
        return try await finish(answer, provider: credential.provider, isNewUser: isNewUser)
    }
}
