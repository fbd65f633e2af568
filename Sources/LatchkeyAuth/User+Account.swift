import Foundation
import LatchkeyWire

extension User {
    /// Reads the account again (address, verification, providers, second factors).
    public func reload() async throws {
        let idToken = try await getIDToken()
        let lookup: GetAccountInfoResponse = try await backend.call("v1/accounts:lookup", GetAccountInfoRequest(idToken: idToken))
        guard let account = lookup.users.first else { throw AuthError(.userNotFound) }
        persist { record in record = UserRecord(account, tokens: record.tokens) }
    }

    /// Adds a way to sign in to this account: a password, an email link, or an identity provider.
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        let owner = try signedInOwner()
        if case .password = credential.proof, record.current.hasPassword {
            throw AuthError(.providerAlreadyLinked, message: "the account has a password; change it with updatePassword(to:)")
        }
        let (answer, _) = try await owner.answer(for: credential, linkingTo: try await getIDToken())
        await adopt(try answer.tokens(state: owner, provider: credential.provider))
        try await reload()
        return AuthDataResult(user: self, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
    }

    /// Adds the texted number to this account; a number another account has throws `credentialAlreadyInUse` with
    /// `updatedPhoneCredential`, which signs in to that account.
    @discardableResult
    public func link(with credential: PhoneAuthCredential) async throws -> AuthDataResult {
        try await link(with: AuthCredential(credential))
    }

    /// Removes the identity provider `provider` (`password`, `phone`) from the account.
    public func unlink(fromProvider provider: String) async throws {
        guard providerData.contains(where: { $0.providerID == provider }) else { throw AuthError(.noSuchProvider, message: provider) }
        let _: EmptyResponse = try await backend.call(
            "v1/accounts:update", SetAccountInfoRequest(idToken: try await getIDToken(), deleteProvider: [provider]))
        try await reload()
    }

    /// Proves again who the user is, for the calls that ask for a recent sign-in. The credential must be this user's;
    /// a provider's never makes an account. An account with a second factor answers `secondFactorRequired`, whose
    /// resolver re-authenticates this user.
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let owner = try signedInOwner()
        let (answer, _) = try await owner.answer(for: credential, linkingTo: nil, autoCreate: false)
        try await resume(with: try answer.tokens(state: owner, provider: credential.provider, reauthenticating: self))
        return AuthDataResult(user: self, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
    }

    /// Proves again, with a texted code, that the user holds the account's number.
    @discardableResult
    public func reauthenticate(with credential: PhoneAuthCredential) async throws -> AuthDataResult {
        try await reauthenticate(with: AuthCredential(credential))
    }

    /// Continues this user's session with the tokens of a re-authentication, which must be this user's.
    func resume(with tokens: TokenSet) async throws {
        guard try IDTokenResult(token: tokens.idToken).subject == uid else { throw AuthError(.userMismatch) }
        await adopt(tokens)
    }

    /// Sets a new password (after a recent sign-in); the service ends the account's other sessions.
    public func updatePassword(to password: String) async throws {
        let answer: SetAccountInfoResponse = try await backend.call(
            "v1/accounts:update", SetAccountInfoRequest(idToken: try await getIDToken(), password: password, returnSecureToken: true))
        await adopt(try SignInAnswer(answer).tokens(state: try signedInOwner(), provider: nil))
        try await reload()
    }

    /// Mails a link that proves the user's address.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let request = (actionCodeSettings ?? ActionCodeSettings()).request(.verifyEmail, idToken: try await getIDToken())
        let _: EmptyResponse = try await backend.call("v1/accounts:sendOobCode", request)
    }

    /// Mails `newEmail` a link that moves the account there once opened (after a recent sign-in); the old address is
    /// told, with a way to undo it.
    public func sendEmailVerification(beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let request = (actionCodeSettings ?? ActionCodeSettings()).request(.verifyAndChangeEmail, idToken: try await getIDToken(), newEmail: newEmail)
        let _: EmptyResponse = try await backend.call("v1/accounts:sendOobCode", request)
    }

    /// Cancels every pending undo of the account's address changes, so that the old addresses can no longer take the
    /// account back; returns how many were cancelled. A Latchkey extension (Firebase has none): it needs a recent sign-in
    /// that passed one of the account's second factors (`requiresRecentLogin` otherwise), and an account without a
    /// second factor cannot (`multiFactorInfoNotFound`).
    public func cancelPendingEmailUndos() async throws -> Int {
        let answer: CancelRecoverEmailResponse = try await backend.call(
            "v1/accounts:cancelRecoverEmail", CancelRecoverEmailRequest(idToken: try await getIDToken()))
        return answer.cancelledUndos
    }

    /// Deletes the account (after a recent sign-in) and signs out.
    public func delete() async throws {
        let _: EmptyResponse = try await backend.call("v1/accounts:delete", DeleteAccountRequest(idToken: try await getIDToken()))
        try owner?.signOut(ifCurrent: self)
    }

    /// The `Auth` this user belongs to, still alive.
    func signedInOwner() throws -> AuthState {
        guard let owner else { throw AuthError(.internalError, message: "the Auth this user signed in with is gone") }
        return owner
    }
}
