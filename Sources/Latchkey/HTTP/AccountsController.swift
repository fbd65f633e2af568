import Foundation
import Hummingbird

/// Password accounts and account information: `accounts:signUp`, `accounts:signInWithPassword`,
/// `accounts:createAuthUri` and `accounts:lookup`.
struct AccountsController {
    let passwords: PasswordAccounts
    let lookup: AccountLookup
    let enumerationProtection: Bool
    let limiter: RateLimiter

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:signUp", use: signUp)
            .post("accounts:signInWithPassword", use: signInWithPassword)
            .post("accounts:createAuthUri", use: createAuthUri)
            .post("accounts:lookup", use: lookupAccount)
    }

    /// Firebase's `SignupNewUserResponse`.
    struct SignUpResponse: ResponseEncodable {
        var kind = "identitytoolkit#SignupNewUserResponse"
        let idToken: String
        let refreshToken: String
        let expiresIn: String
        let localId: String
        let email: String?
    }

    /// Firebase's `VerifyPasswordResponse`.
    struct SignInWithPasswordResponse: ResponseEncodable {
        var kind = "identitytoolkit#VerifyPasswordResponse"
        let idToken: String
        let refreshToken: String
        let expiresIn: String
        let localId: String
        let email: String
        var registered = true
    }

    /// Firebase's `CreateAuthUriResponse`; with enumeration protection only `kind` and `sessionId`.
    struct CreateAuthUriResponse: ResponseEncodable {
        var kind = "identitytoolkit#CreateAuthUriResponse"
        var registered: Bool?
        var allProviders: [String]?
        var signinMethods: [String]?
        let sessionId: String
    }

    /// Firebase's `GetAccountInfoResponse`.
    struct LookupResponse: ResponseEncodable {
        /// One user as Firebase describes it; times are strings, as in Google's JSON mapping of int64.
        struct User: Encodable {
            struct ProviderInfo: Encodable {
                let providerId: String
                let federatedId: String
                let email: String
                let rawId: String
            }
            let localId: String
            let email: String?
            let emailVerified: Bool
            let displayName: String?
            let photoUrl: String?
            let passwordHash: String?
            let providerUserInfo: [ProviderInfo]
            let validSince: String
            let disabled: Bool?
            let createdAt: String
            let lastLoginAt: String?
            /// Firebase marks users who sign in by email link; absent otherwise.
            let emailLinkSignin: Bool?

            init(_ user: UserRecord) {
                let account = user.account
                func milliseconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970 * 1000)) }
                let email = account.email?.value
                localId = account.id
                self.email = email
                emailVerified = account.isEmailVerified
                displayName = account.displayName
                photoUrl = account.photoURL
                passwordHash = account.passwordHash == nil ? nil : "UkVEQUNURUQ="  // "REDACTED", as Firebase answers
                providerUserInfo = user.identities.map {
                    .init(providerId: $0.providerID, federatedId: $0.providerUserID, email: $0.email?.value ?? "", rawId: $0.providerUserID)
                }
                validSince = String(Int64(account.validSince.timeIntervalSince1970))
                disabled = account.isDisabled ? true : nil
                createdAt = milliseconds(account.createdAt)
                lastLoginAt = account.lastSignInAt.map(milliseconds)
                emailLinkSignin = user.signInMethods.contains("emailLink") ? true : nil
            }
        }
        var kind = "identitytoolkit#GetAccountInfoResponse"
        let users: [User]
    }

    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> SignUpResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        var email: EmailAddress?
        var password: String?
        if body["email"] != nil || body["password"] != nil {
            email = try IdentityToolkitController.email(in: body)
            password = try PasswordHasher.validate(try IdentityToolkitController.optionalString(body["password"], else: .missingPassword))
        }
        // Counted per IP: each sign-up is an account, and `EMAIL_EXISTS` tells whether an address is registered.
        let requester = context.requester(of: request)
        if !context.isAdmin {
            try await limiter.admit([RateLimiter.Check(.signUpPerIP, context.clientIP ?? "")], email: email, requester: requester)
        }
        let session = try await passwords.signUp(email: email, password: password, requester: requester, logger: context.logger)
        return SignUpResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), localId: session.account.id,
            email: email?.value)
    }

    @Sendable func signInWithPassword(_ request: Request, context: AppRequestContext) async throws -> SignInWithPasswordResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        let email = try IdentityToolkitController.email(in: body)
        guard let password = try IdentityToolkitController.optionalString(body["password"], else: .invalidPassword), !password.isEmpty else {
            throw SignInError.missingPassword
        }
        let requester = context.requester(of: request)
        if !context.isAdmin { try await limiter.admit([RateLimiter.Check(.completePerIP, context.clientIP ?? "")], requester: requester) }
        let failureLimits =
            context.isAdmin ? [] : [RateLimiter.Check(.passwordPerIP, context.clientIP ?? ""), RateLimiter.Check(.passwordPerEmail, email.value)]
        let session = try await passwords.signIn(
            email: email, password: password, failureLimits: failureLimits, requester: requester, logger: context.logger)
        return SignInWithPasswordResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), localId: session.account.id,
            email: email.value)
    }

    @Sendable func createAuthUri(_ request: Request, context: AppRequestContext) async throws -> CreateAuthUriResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        guard let raw = try IdentityToolkitController.optionalString(body["identifier"], else: .invalidIdentifier), !raw.isEmpty else {
            throw SignInError.missingIdentifier
        }
        guard let email = EmailAddress(raw) else { throw SignInError.invalidIdentifier }
        var response = CreateAuthUriResponse(sessionId: ServerSecret.makeToken(bytes: 16))
        guard !enumerationProtection else { return response }
        let user = try await lookup.user(email: email)
        response.registered = user != nil
        response.allProviders = user?.providerIDs ?? []
        response.signinMethods = user?.signInMethods ?? []
        return response
    }

    @Sendable func lookupAccount(_ request: Request, context: AppRequestContext) async throws -> LookupResponse {
        let body = try await RequestBody.jsonObject(request, context: context)
        if context.isAdmin, body["idToken"] == nil {
            let ids = (body["localId"].map(Self.strings) ?? []).prefix(100)
            let emails = (body["email"].map(Self.strings) ?? []).prefix(100).compactMap(EmailAddress.init)
            let users = try await lookup.users(ids: Array(ids), emails: emails)
            return LookupResponse(users: users.map(LookupResponse.User.init))
        }
        guard let idToken = try IdentityToolkitController.optionalString(body["idToken"], else: .invalidIDToken), !idToken.isEmpty else {
            throw SignInError.invalidIDToken
        }
        return LookupResponse(users: [LookupResponse.User(try await lookup.user(idToken: idToken))])
    }

    /// A string or a list of strings, as the admin lookup takes `localId` and `email`.
    static func strings(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let string): [string]
        case .array(let values): values.compactMap(\.stringValue)
        default: []
        }
    }
}
