import Foundation
import JWTKit

/// Signs ID tokens and publishes the keys that verify them.
package struct TokenIssuer: Sendable {
    /// Verifies tokens signed by any published key.
    let collection: JWTKeyCollection
    private let signer: JWSSigner
    package let jwks: JSONWebKeySet
    package let issuer: String
    package let audience: String
    package let lifetime: Int

    package init(keys: SigningKeys, configuration: TokenConfiguration, projectID: String) async throws {
        guard let current = keys.current else { throw StartupError("no signing key in \(configuration.keyDirectory)") }
        let collection = JWTKeyCollection()
        for key in keys.keys {
            switch key.material {
            case .rsa(let rsa): await collection.add(rsa: rsa.publicKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
            case .p256(let p256): await collection.add(ecdsa: p256.publicKey, kid: JWKIdentifier(string: key.id))
            }
        }
        self.collection = collection
        self.signer = try JWSSigner(current)
        self.jwks = try JSONWebKeySet(keys)
        self.issuer = configuration.issuer
        self.audience = projectID
        self.lifetime = configuration.idTokenLifetimeSeconds
    }

    /// An ID token for `user`, valid for the configured lifetime from `now`.
    package func makeIDToken(for user: UserRecord, authTime: Date, now: Date, sessionID: String, signInProvider: SignInProvider) throws -> String {
        let account = user.account
        let issuedAt = now.wholeSeconds
        let claims = IDTokenClaims(
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
            firebase: .init(identities: user.tokenIdentities, signInProvider: signInProvider.id)
        )
        return try signer.sign(claims)
    }
}

extension Date {
    /// Whole seconds, because many JWT verifiers reject fractional `iat` and `exp`.
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

extension TokenIssuer {
    /// The claims of an ID token this server issued: signature, expiry, issuer and audience checked.
    package func verifyIDToken(_ token: String) async throws(SignInError) -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try await collection.verify(token, as: IDTokenClaims.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw .tokenExpired
        } catch {
            throw .invalidIDToken
        }
        guard claims.issuer.value == issuer, claims.audience.value == [audience] else { throw .invalidIDToken }
        return claims
    }
}
