import Foundation
import JWTKit

/// Signs ID tokens and publishes the keys that verify them.
package struct TokenIssuer: Sendable {
    /// The keys, kept current from the store.
    let keys: SigningKeyRing
    package let issuer: String
    package let audience: String
    package let lifetime: Int

    /// No key of the configured algorithm is active: start-up checks there is one, so only a store emptied under a
    /// running server gets here.
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
    /// With `secondFactor` (an enrollment id) the token says the session passed that TOTP factor.
    package func makeIDToken(
        for user: UserRecord, authTime: Date, now: Date, sessionID: String, signInProvider: SignInProvider, secondFactor: String? = nil
    ) throws -> String {
        guard let signer = keys.signer(at: now) else { throw NoActiveKey() }
        let account = user.account
        let issuedAt = now.wholeSeconds
        var claims = IDTokenClaims(
            issuer: IssuerClaim(value: issuer),
            audience: AudienceClaim(value: [audience]),
            subject: SubjectClaim(value: account.id),
            userID: account.id,
            issuedAt: IssuedAtClaim(value: issuedAt),
            expiration: ExpirationClaim(value: issuedAt.addingTimeInterval(TimeInterval(lifetime))),
            authTime: Int(authTime.wholeSeconds.timeIntervalSince1970),
            email: account.email?.value,
            emailVerified: account.email == nil ? nil : account.isEmailVerified,
            name: account.displayName,
            picture: account.photoURL,
            sessionID: sessionID,
            firebase: .init(
                identities: user.tokenIdentities, signInProvider: signInProvider.id, signInSecondFactor: secondFactor.map { _ in SecondFactor.kind },
                secondFactorIdentifier: secondFactor)
        )
        claims.customClaims = account.customClaims?.members ?? [:]
        return try signer.sign(claims)
    }
}

extension Date {
    /// Whole seconds, because many JWT verifiers reject fractional `iat` and `exp`.
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

extension TokenIssuer {
    /// The claims of an ID token this server issued: signature, expiry, issuer and audience checked. A token naming a
    /// key this process has not loaded (rotated a moment ago, another instance already signing with it) reloads the
    /// keys first.
    package func verifyIDToken(_ token: String) async throws(SignInError) -> IDTokenClaims {
        let claims: IDTokenClaims
        if let keyID = JWSHeader(of: token)?.kid, !keys.holds(keyID) { await keys.reloadForUnknownKey() }
        do {
            claims = try await keys.verifier.verify(token, as: IDTokenClaims.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw .tokenExpired
        } catch {
            throw .invalidIDToken
        }
        guard claims.issuer.value == issuer, claims.audience.value == [audience] else { throw .invalidIDToken }
        return claims
    }
}
