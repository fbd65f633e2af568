import Foundation
import Latchkey
import Testing

@Suite struct IdentityProvidersConfigurationTests {
    @Test func providersAreReadWithTheirDefaultsAndSecretsByReference() async throws {
        try await withWorkspace { workspace in
            let secretFile = workspace.directory.appendingPathComponent("yahoo-secret")
            try Data("file-secret\n".utf8).write(to: secretFile)
            let configuration = try await workspace.configuration(
                [
                    "identityProviders": [
                        [
                            "providerId": "oidc.corp", "displayName": "Corp SSO", "issuer": "https://sso.corp.example", "clientId": "latchkey",
                            "clientSecret": ["env": "CORP_SECRET"], "responseType": ["code": true], "emailTrust": "always",
                            "tokenEndpointAuthMethod": "client_secret_post", "clockSkewSeconds": 0,
                        ],
                        ["providerId": "yahoo.com", "clientId": "yahoo-client", "clientSecret": ["file": secretFile.path], "enabled": false],
                        ["providerId": "google.com", "clientId": "google-client", "issuer": "http://127.0.0.1:9400", "allowInsecureIssuer": true],
                    ],
                    "idp.pendingTokenTtlSeconds": 120, "signIn.allowDuplicateEmails": true,
                ], environment: ["CORP_SECRET": "env-secret"])
            let providers = configuration.identityProviders
            #expect(providers.providers.map(\.providerID) == ["oidc.corp", "yahoo.com", "google.com"])
            let corp = try #require(providers.provider("oidc.corp"))
            #expect(corp.clientSecret == "env-secret" && corp.responseType == .code && corp.emailTrust == .always)
            #expect(corp.clientAuthentication == .post && corp.clockSkewSeconds == 0 && corp.scopes == ["openid", "email", "profile"])
            let yahoo = try #require(providers.provider("yahoo.com"))
            #expect(yahoo.issuer.absoluteString == "https://api.login.yahoo.com" && yahoo.clientSecret == "file-secret" && !yahoo.isEnabled)
            #expect(yahoo.responseType == .idToken && yahoo.usesPKCE)
            #expect(providers.provider("google.com")?.issuer.absoluteString == "http://127.0.0.1:9400")
            #expect(providers.pendingTokenTTLSeconds == 120 && providers.authSessionTTLSeconds == 600 && providers.allowsDuplicateEmails)
            #expect(try await workspace.configuration().identityProviders == IdentityProvidersConfiguration())
        }
    }

    /// Each provider as JSON text, and the start of the problem it must be refused with.
    static let problems: [(String, String)] = [
        (#"{"providerId":"corp","issuer":"https://sso.example","clientId":"c"}"#, "identityProviders.0.providerId:"),
        (#"{"providerId":"oidc.","issuer":"https://sso.example","clientId":"c"}"#, "identityProviders.0.providerId:"),
        (#"{"providerId":"oidc.a b","issuer":"https://sso.example","clientId":"c"}"#, "identityProviders.0.providerId:"),
        (#"{"providerId":"oidc.Corp","issuer":"https://sso.example","clientId":"c"}"#, "identityProviders.0.providerId:"),
        (#"{"providerId":"oidc.corp","clientId":"c"}"#, "identityProviders.0.issuer: is required"),
        (#"{"providerId":"oidc.corp","issuer":"http://sso.example","clientId":"c"}"#, "identityProviders.0.issuer: must be an https URL"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example?x=1","clientId":"c"}"#, "identityProviders.0.issuer:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example"}"#, "identityProviders.0.clientId:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","responseType":{"code":true}}"#,
         "identityProviders.0.clientSecret: is required with responseType code"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","responseType":{"code":true,"idToken":true}}"#,
         "identityProviders.0.responseType:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","clientSecret":"inline"}"#,
         "identityProviders.0.clientSecret: give it as"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","clientSecret":{"env":"UNSET_VARIABLE"}}"#,
         "identityProviders.0.clientSecret: environment variable UNSET_VARIABLE is not set"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","clientSecret":{"file":"/nonexistent/secret"}}"#,
         "identityProviders.0.clientSecret: cannot read"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","scopes":["email"]}"#, "identityProviders.0.scopes:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","emailTrust":"sometimes"}"#, "identityProviders.0.emailTrust:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","clockSkewSeconds":600}"#,
         "identityProviders.0.clockSkewSeconds:"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","clientSecrt":{"env":"X"}}"#,
         "identityProviders.0.clientSecrt.env: unknown key"),
        (#"{"providerId":"oidc.corp","issuer":"https://sso.example","clientId":"c","graphURL":"https://graph.example"}"#,
         "identityProviders.0.graphURL: is for facebook.com only"),
        (#"{"providerId":"facebook.com","clientId":"c","graphURL":"http://graph.example"}"#, "identityProviders.0.graphURL: must be an https URL"),
    ]

    @Test(arguments: problems)
    func badProvidersAreReportedWithTheirKey(_ json: String, _ expected: String) async throws {
        let provider = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        try await withWorkspace { workspace in
            let problems = try await workspace.problems(["identityProviders": [provider]])
            #expect(problems.contains { $0.hasPrefix(expected) }, "\(problems)")
        }
    }

    @Test func aProviderListedTwiceAndAnInlineSecretInDevelopmentMode() async throws {
        try await withWorkspace { workspace in
            let corp: [String: Any] = ["providerId": "oidc.corp", "issuer": "https://sso.example", "clientId": "c"]
            #expect(try await workspace.problems(["identityProviders": [corp, corp]]) == ["identityProviders: lists oidc.corp twice"])
            var inline = corp
            inline["clientSecret"] = "dev-secret"
            let configuration = try await workspace.configuration(["mode": "development", "identityProviders": [inline]])
            #expect(configuration.identityProviders.provider("oidc.corp")?.clientSecret == "dev-secret")
            #expect(
                try await workspace.problems(["idp.allowInsecureIssuers": true, "identityProviders": [corp.merging(["issuer": "http://127.0.0.1:1"]) { $1 }]])
                    .isEmpty)
        }
    }
}
