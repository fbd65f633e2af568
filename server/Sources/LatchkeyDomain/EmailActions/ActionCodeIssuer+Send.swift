import Foundation
import LatchkeyWire
import Logging

extension ActionCodeIssuer {
    /// What `accounts:sendOobCode` answers for an email action: the address the code is for, and what was issued (for
    /// an admin's `returnOobLink`); nil when nothing was, although the caller is told it was.
    package struct Sent: Sendable {
        package var email: EmailAddress
        package var issued: Issued?
    }

    /// `accounts:sendOobCode` for `action`, a password reset, a verification or an address change: a password reset is
    /// asked for by address with the API key alone; a verification or an address change by the signed-in user's ID token
    /// (its signature checked here, whether it still counts inside the write that issues), or by an admin for any
    /// address. With `returnOobLink` (an admin's), nothing is mailed.
    package func send(
        _ action: EmailAction, _ request: SendOobCodeRequest, settings: ActionCodeSettings, language: LanguageTag, apiKey: String, by caller: Caller,
        logger: Logger
    ) async throws -> Sent {
        let newEmail: EmailAddress?
        if action == .verifyAndChangeEmail {
            guard let raw = request.newEmail, !raw.isEmpty else { throw SignInError.missingNewEmail }
            newEmail = try EmailAddress(requestField: raw)
        } else {
            newEmail = nil
        }
        let subject: Subject
        if action != .resetPassword, let idToken = request.idToken, !idToken.isEmpty {
            let claims = try await authentication.claims(of: idToken)
            subject = .signedIn(claims, address: try await address(of: claims))
        } else if action == .resetPassword || caller.isAdmin {
            subject = .owner(of: try EmailAddress(requestField: request.email))
        } else {
            throw action == .verifyEmail ? SignInError.invalidIDToken : .missingIDToken
        }
        let issued = try await issue(
            Request(action, for: subject, newEmail: newEmail, settings: settings, language: language, apiKey: apiKey, caller: caller),
            sendsEmail: request.returnOobLink != true, logger: logger)
        return Sent(email: issued?.email ?? subject.address, issued: issued)
    }

    /// The address of the account `claims` names, read before the write that issues: the per-address window counts it,
    /// and an answer that sent nothing names it. Whether the token still counts is decided inside that write.
    private func address(of claims: IDTokenClaims) async throws -> EmailAddress {
        guard let account = try await store.read({ try await $0.account(id: claims.userID) }) else { throw SignInError.userNotFound }
        guard let email = account.email else { throw SignInError.missingEmail }
        return email
    }
}
