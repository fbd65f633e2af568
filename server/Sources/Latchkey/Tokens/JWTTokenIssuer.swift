import Foundation
import JWTKit
import LatchkeyDomain

/// Signs ID tokens and session cookies as JWTs with the store's signing keys, and publishes the keys that verify them:
/// the domain's `TokenIssuer`.
package struct JWTTokenIssuer: TokenIssuer {
    /// The keys, kept current from the store.
    let keys: SigningKeyRing
    package let issuer: String
    package let audience: String
    package let lifetime: Int

    /// No key is active: start-up checks there is one, so only a store emptied under a running server gets here.
    struct NoActiveKey: Error {}

    package init(keys: SigningKeyRing, configuration: TokenConfiguration, projectID: String) {
        self.keys = keys
        self.issuer = configuration.issuer
        self.audience = projectID
        self.lifetime = configuration.idTokenLifetimeSeconds
    }

    /// The keys to publish at `now`: the active and pending ones, and retired ones whose tokens may still be valid.
    package func publishedKeys(at now: Date) -> JSONWebKeySet {
        keys.publishedKeys(at: now)
    }

    /// An ID token for `user`, valid for the configured lifetime from `now`, signed by the key active at `now`.
    /// With `secondFactor` the token says the session passed that factor. A custom token's
    /// `developerClaims` win over the account's custom claims of the same name, as in Firebase's emulator
    /// (firebase-tools `src/emulator/auth/operations.ts`, `generateJwt`).
    package func makeIDToken(
        for user: UserRecord, authTime: Date, now: Date, sessionID: String, signInProvider: SignInProvider, secondFactor: PassedSecondFactor? = nil,
        developerClaims: CustomClaims? = nil
    ) throws -> String {
        guard let signer = keys.signer(at: now) else { throw NoActiveKey() }
        let account = user.account
        let issuedAt = now.wholeSeconds
        let claims = IDTokenClaims(
            issuer: issuer,
            audience: [audience],
            subject: account.id,
            userID: account.id,
            issuedAt: issuedAt,
            expiration: issuedAt.addingTimeInterval(TimeInterval(lifetime)),
            authTime: Int(authTime.wholeSeconds.timeIntervalSince1970),
            email: account.email?.value,
            emailVerified: account.email == nil ? nil : account.isEmailVerified,
            name: account.displayName,
            picture: account.photoURL,
            sessionID: sessionID,
            firebase: .init(
                identities: user.tokenIdentities, signInProvider: signInProvider.id, signInSecondFactor: secondFactor?.kind.rawValue,
                secondFactorIdentifier: secondFactor?.id),
            customClaims: (account.customClaims?.members ?? [:]).merging(developerClaims?.members ?? [:]) { _, developer in developer },
            phoneNumber: account.phoneNumber?.value
        )
        return try signer.sign(IDTokenPayload(claims))
    }

    /// The issuer of session cookies: Firebase's, `https://session.firebase.google.com/{projectId}`, whatever
    /// `tokens.issuer` says, because the Admin SDKs' `verify_session_cookie` accepts no other (`COOKIE_ISSUER_PREFIX` in
    /// firebase-admin-python's `_token_gen.py`; firebase-tools' emulator sets the same in `createSessionCookie`).
    package var sessionCookieIssuer: String { TokenConfiguration.sessionCookieIssuerPrefix + audience }

    /// The ID token's claims as they were (`sub`, `user_id`, `auth_time`, `firebase`, the profile and custom claims,
    /// `sid`), with the session-cookie issuer and `iat`/`exp` of their own, as firebase-tools' emulator makes them
    /// (`createSessionCookie` in `src/emulator/auth/operations.ts`), but signed like an ID token rather than unsigned.
    package func makeSessionCookie(from claims: IDTokenClaims, now: Date, validFor duration: Int) throws -> String {
        guard let signer = keys.signer(at: now) else { throw NoActiveKey() }
        var cookie = claims
        cookie.issuer = sessionCookieIssuer
        cookie.issuedAt = now.wholeSeconds
        cookie.expiration = cookie.issuedAt.addingTimeInterval(TimeInterval(duration))
        return try signer.sign(IDTokenPayload(cookie))
    }
}

extension JWTTokenIssuer {
    /// The claims of an ID token this server issued: signature, expiry, issuer and audience checked. A token naming a
    /// key this process has not loaded (rotated a moment ago, another instance already signing with it) reloads the
    /// keys first.
    package func verifyIDToken(_ token: String) async throws(SignInError) -> IDTokenClaims {
        let claims: IDTokenPayload
        if let keyID = JWSHeader(of: token)?.kid, !keys.holds(keyID) { await keys.reloadForUnknownKey() }
        do {
            claims = try await keys.verifier.verify(token, as: IDTokenPayload.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw .tokenExpired
        } catch {
            throw .invalidIDToken
        }
        guard claims.issuer.value == issuer, claims.audience.value == [audience] else { throw .invalidIDToken }
        return claims.claims
    }
}
