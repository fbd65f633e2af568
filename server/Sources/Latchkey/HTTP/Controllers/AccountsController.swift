import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// Password accounts and account information: `accounts:signUp`, `accounts:signInWithPassword`,
/// `accounts:createAuthUri`, `accounts:lookup` (for the signed-in user, or an admin) and the admin listing
/// `accounts:batchGet` (`adminEndpoints`).
struct AccountsController {
    let passwords: PasswordAccounts
    /// Creates the accounts an admin signs up: nobody signs in to them.
    let administration: AccountAdministration
    let lookup: AccountLookup
    let authURIs: AuthURIs

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("accounts:signUp", use: signUp)
            .post("accounts:signInWithPassword", use: signInWithPassword)
            .post("accounts:createAuthUri", use: createAuthUri)
            .post("accounts:lookup", use: lookupAccount)
    }

    /// Admin routes: only a request with an admin token gets an `AdminRequestContext`.
    var adminEndpoints: RouteCollection<AdminRequestContext> {
        RouteCollection(context: AdminRequestContext.self)
            .get("accounts:batchGet", use: listAccounts)
    }

    /// A user's sign-up or link (`PasswordAccounts`); an admin's without `idToken` creates an account, as the Admin SDKs'
    /// `create_user` does, and gets it without tokens.
    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> SignupNewUserResponse {
        let body = try await RequestBody.decode(SignupNewUserRequest.self, from: request, context: context)
        if context.admin != nil, body.idToken == nil { return try await createAccount(body, request, context: context) }
        let session = try await passwords.signUp(
            body, language: context.language(of: request), by: context.caller(of: request), logger: context.logger)
        return SignupNewUserResponse(
            idToken: session.idToken, refreshToken: session.refreshToken, expiresIn: String(session.expiresIn), localId: session.account.id,
            email: session.account.email?.value)
    }

    /// Firebase's privileged `signUp`: every field optional, the account answered without a session.
    private func createAccount(_ body: SignupNewUserRequest, _ request: Request, context: AppRequestContext) async throws -> SignupNewUserResponse {
        let creation = try AccountAdministration.Creation(
            localId: body.localId, email: body.email == nil ? nil : try EmailAddress(requestField: body.email), password: body.password,
            displayName: body.displayName, photoURL: body.photoUrl, isDisabled: body.disabled, isEmailVerified: body.emailVerified,
            phoneNumber: body.phoneNumber, passwordPolicy: administration.passwordPolicy)
        let account = try await administration.create(creation, requester: context.requester(of: request), logger: context.logger).account
        return SignupNewUserResponse(
            idToken: nil, refreshToken: nil, expiresIn: nil, localId: account.id, email: account.email?.value, displayName: account.displayName)
    }

    @Sendable func signInWithPassword(_ request: Request, context: AppRequestContext) async throws -> VerifyPasswordResponse {
        let body = try await RequestBody.decode(VerifyPasswordRequest.self, from: request, context: context)
        let email = try EmailAddress(requestField: body.email)
        guard let password = body.password, !password.isEmpty else { throw SignInError.missingPassword }
        let result = try await passwords.signIn(email: email, password: password, by: context.caller(of: request), logger: context.logger)
        var response = VerifyPasswordResponse(idToken: nil, refreshToken: nil, expiresIn: nil, localId: result.account.id, email: email.value)
        response.answer(result)
        return response
    }

    /// With `providerId`, starts a sign-in with that provider; with `identifier` (also), tells how the address signs in.
    @Sendable func createAuthUri(_ request: Request, context: AppRequestContext) async throws -> CreateAuthUriResponse {
        let body = try await RequestBody.decode(CreateAuthUriRequest.self, from: request, context: context)
        // Kept with the session and the pending token: a note for the app, not a store.
        guard (body.context?.utf8.count ?? 0) <= 4096 else {
            throw APIError(status: .badRequest, message: "INVALID_ARGUMENT : context is longer than 4096 bytes", rpcStatus: "INVALID_ARGUMENT")
        }
        let created = try await authURIs.create(body)
        var response = CreateAuthUriResponse(sessionId: created.sessionID)
        (response.authUri, response.providerId) = (created.authURI, created.providerID)
        // With enumeration protection only `kind` and `sessionId` (and the provider's URL).
        guard let options = created.options else { return response }
        response.registered = options.isRegistered
        response.allProviders = options.providerIDs
        response.signinMethods = options.signInMethods
        return response
    }

    /// An admin without `idToken` looks accounts up by id, address, number and identity (at most 100 of each;
    /// unacceptable addresses and numbers match nothing); anyone else, and an admin who gives one, by ID token.
    @Sendable func lookupAccount(_ request: Request, context: AppRequestContext) async throws -> GetAccountInfoResponse {
        let body = try await RequestBody.decode(GetAccountInfoRequest.self, from: request, context: context)
        if context.admin != nil, body.idToken == nil {
            let ids = (body.localId ?? []).prefix(100)
            let emails = (body.email ?? []).prefix(100).compactMap(EmailAddress.init(_:))
            let phoneNumbers = (body.phoneNumber ?? []).prefix(100).compactMap(PhoneNumber.init(_:))
            let identities = (body.federatedUserId ?? []).prefix(100).compactMap { entry in
                entry.providerId.flatMap { provider in entry.rawId.map { (providerID: provider, providerUserID: $0) } }
            }
            let users = try await lookup.users(ids: Array(ids), emails: emails, phoneNumbers: phoneNumbers, identities: identities)
            return GetAccountInfoResponse(users: users.map(UserInfo.init(_:)))
        }
        guard let idToken = body.idToken, !idToken.isEmpty else { throw SignInError.invalidIDToken }
        return GetAccountInfoResponse(users: [UserInfo(try await lookup.user(idToken: idToken))])
    }

    /// Firebase's `accounts:batchGet` (admin; the Admin SDKs' `list_users`): every account in uid order, `maxResults`
    /// at a time (1 to 1000, 20 by default), `nextPageToken` to go on. Password hashes show only as Firebase's
    /// redacted placeholder.
    @Sendable func listAccounts(_ request: Request, context: AdminRequestContext) async throws -> DownloadAccountResponse {
        let query = request.uri.queryParameters
        let size = try query.get("maxResults").map { text throws(SignInError) in
            guard let size = Int(text) else { throw .invalidPageSelection }
            return size
        }
        let (users, next) = try await lookup.page(size: size, after: query.get("nextPageToken"))
        return DownloadAccountResponse(users: users.isEmpty ? nil : users.map(UserInfo.init(_:)), nextPageToken: next)
    }
}
