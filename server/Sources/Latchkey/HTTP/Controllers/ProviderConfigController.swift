import Foundation
import Hummingbird
import LatchkeyDomain
import LatchkeyWire

/// The admin API for identity providers, Identity Toolkit v2's `projects/{p}/oauthIdpConfigs` and
/// `projects/{p}/defaultSupportedIdpConfigs` (spec §6), as the Firebase Admin SDKs call them: create with
/// `?oauthIdpConfigId=` or `?idpId=`, get, list with `pageSize` and `pageToken`, `PATCH` with `updateMask`, delete.
/// Admins only: its routes have an `AdminRequestContext`.
struct ProviderConfigController {
    let administration: ProviderConfigAdministration
    let projectID: String

    var endpoints: RouteCollection<AdminRequestContext> {
        let routes = RouteCollection(context: AdminRequestContext.self)
        for kind in [ProviderConfig.Kind.oidc, .builtIn] {
            routes.get(RouterPath(kind.rawValue)) { try await list(kind, $0, $1) }
            routes.post(RouterPath(kind.rawValue)) { try await create(kind, $0, $1) }
            routes.get(RouterPath("\(kind.rawValue)/{id}")) { try await get(kind, $0, $1) }
            routes.patch(RouterPath("\(kind.rawValue)/{id}")) { try await update(kind, $0, $1) }
            routes.delete(RouterPath("\(kind.rawValue)/{id}")) { try await delete(kind, $0, $1) }
        }
        return routes
    }

    private func list(_ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let size = try query.get("pageSize").map { text throws(ProviderConfigError) in
            guard let size = Int(text) else { throw .invalidPageSelection }
            return size
        }
        let (page, next) = try await administration.list(kind, pageSize: size, pageToken: query.get("pageToken"))
        switch kind {
        case .oidc:
            return try ListOAuthIdpConfigsResponse(oauthIdpConfigs: page.isEmpty ? nil : page.map(oidc), nextPageToken: next).response(from: request, context: context)
        case .builtIn:
            return try ListDefaultSupportedIdpConfigsResponse(defaultSupportedIdpConfigs: page.isEmpty ? nil : page.map(builtIn), nextPageToken: next)
                .response(from: request, context: context)
        }
    }

    private func create(_ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext) async throws -> Response {
        let id = request.uri.queryParameters.get(kind == .oidc ? "oauthIdpConfigId" : "idpId")
        let edit = try Self.edit(try await RequestBody.object(from: request, context: context), mask: nil, kind: kind)
        return try resource(try await administration.create(kind, id: id, edit), kind, request, context)
    }

    private func get(_ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext) async throws -> Response {
        return try resource(try await administration.get(kind, id: context.parameters.get("id") ?? ""), kind, request, context)
    }

    private func update(_ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext) async throws -> Response {
        let mask = request.uri.queryParameters.get("updateMask").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let edit = try Self.edit(try await RequestBody.object(from: request, context: context), mask: mask, kind: kind)
        return try resource(try await administration.update(kind, id: context.parameters.get("id") ?? "", edit), kind, request, context)
    }

    private func delete(_ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext) async throws -> Response {
        try await administration.delete(kind, id: context.parameters.get("id") ?? "")
        return try EmptyResponse().response(from: request, context: context)
    }

    /// The fields a body sets: those `mask` names (a named field absent or null is cleared), or without a mask every
    /// field the body holds.
    static func edit(_ body: JSONValue, mask: [String]?, kind: ProviderConfig.Kind) throws(ProviderConfigError) -> ProviderConfigAdministration.Edit {
        let known =
            kind == .oidc
            ? ["displayName", "enabled", "issuer", "clientId", "clientSecret", "responseType.code", "responseType.idToken"]
            : ["enabled", "clientId", "clientSecret"]
        func value(_ path: String) -> JSONValue? {
            let parts = path.split(separator: ".").map(String.init)
            return parts.dropFirst().reduce(body[parts[0]]) { $0?[$1] }
        }
        var paths = mask ?? known.filter { value($0) != nil }
        if let mask {
            // `responseType` stands for both of its flags.
            paths = mask.flatMap { $0 == "responseType" && kind == .oidc ? ["responseType.code", "responseType.idToken"] : [$0] }
            if let unknown = paths.first(where: { !known.contains($0) }) { throw .invalidConfig("unknown field in updateMask: \(unknown)") }
        }
        func text(_ path: String) throws(ProviderConfigError) -> String? {
            switch value(path) {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw .invalidConfig("\(path) must be a string")
            }
        }
        func flag(_ path: String) throws(ProviderConfigError) -> Bool {
            switch value(path) {
            case nil, .null?: return false
            case .bool(let flag)?: return flag
            default: throw .invalidConfig("\(path) must be true or false")
            }
        }
        var edit = ProviderConfigAdministration.Edit()
        for path in paths {
            switch path {
            case "displayName": edit.displayName = .some(try text(path))
            case "enabled": edit.isEnabled = try flag(path)
            case "issuer": edit.issuer = .some(try text(path))
            case "clientId": edit.clientID = .some(try text(path))
            case "clientSecret": edit.clientSecret = .some(try text(path))
            case "responseType.code": edit.code = try flag(path)
            default: edit.idToken = try flag(path)
            }
        }
        return edit
    }

    private func resource(
        _ listed: ProviderConfigAdministration.Listed, _ kind: ProviderConfig.Kind, _ request: Request, _ context: AdminRequestContext
    ) throws -> Response {
        kind == .oidc ? try oidc(listed).response(from: request, context: context) : try builtIn(listed).response(from: request, context: context)
    }

    private func oidc(_ listed: ProviderConfigAdministration.Listed) -> OAuthIdpConfig {
        let settings = listed.settings
        return OAuthIdpConfig(
            name: "projects/\(projectID)/oauthIdpConfigs/\(settings.providerID)", clientId: settings.clientID, issuer: settings.issuer.absoluteString,
            displayName: settings.displayName, enabled: settings.isEnabled, clientSecret: listed.clientSecret,
            responseType: .init(code: settings.responseType == .code, idToken: settings.responseType == .idToken))
    }

    private func builtIn(_ listed: ProviderConfigAdministration.Listed) -> DefaultSupportedIdpConfig {
        DefaultSupportedIdpConfig(
            name: "projects/\(projectID)/defaultSupportedIdpConfigs/\(listed.settings.providerID)", clientId: listed.settings.clientID,
            clientSecret: listed.clientSecret, enabled: listed.settings.isEnabled)
    }

}
