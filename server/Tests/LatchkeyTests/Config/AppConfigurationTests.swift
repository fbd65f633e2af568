import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct AppConfigurationTests {
    @Test func theEmbeddedDefaultConfigurationLoads() async throws {
        let path = TestWorkspace.repositoryRoot.appendingPathComponent("config/latchkey.json").path
        let configuration = try await AppConfiguration.load(path: path, environment: [:])
        #expect(configuration.mode == .development)
        #expect(configuration.storage.sqlitePath == "data/latchkey.sqlite")
        #expect(configuration.mail.fileDirectory == "data/outbox")
        #expect(configuration.emailLink.codeLifetimeSeconds == 600)
    }

    @Test func theProductionExampleLoads() async throws {
        let path = TestWorkspace.repositoryRoot.appendingPathComponent("config/production.example.json").path
        // The SMTP password comes from /etc/latchkey/latchkey.env, as docs/deployment.md sets it.
        let configuration = try await AppConfiguration.load(path: path, environment: ["SMTP_PASSWORD": "from latchkey.env"])
        #expect(configuration.mode == .production)
        #expect(configuration.logLevel == .info)
        // What docs/deployment.md says: mail through SMTP, the local nginx trusted, templates as installed.
        #expect(configuration.mail.transport == .smtp)
        #expect(configuration.server.trustedProxies.count == 2)
        #expect(configuration.templatesDirectory == "/usr/local/share/latchkey/templates")
        #expect(configuration.openAPIDocument == "/usr/local/share/latchkey/openapi.json")
    }

    /// ID tokens and session cookies share their audience, so an ID-token issuer in the session cookies' namespace would
    /// let each pass for the other: refused.
    @Test func theTokenIssuerIsNoSessionCookieIssuer() async throws {
        try await withWorkspace { workspace in
            do {
                _ = try await workspace.configuration(["tokens.issuer": "https://session.firebase.google.com/latchkey-test"])
                Issue.record("a session-cookie issuer was accepted for ID tokens")
            } catch let problems as ConfigProblems {
                #expect(problems.messages.contains { $0.hasPrefix("tokens.issuer: must not be a session-cookie issuer") }, "\(problems)")
            }
            let issuer = try await workspace.configuration(["tokens.issuer": "https://securetoken.google.com/p"]).tokens.issuer
            #expect(issuer == "https://securetoken.google.com/p")
        }
    }

    /// Second factors are off by default; the file turns them on and tunes them, within their ranges.
    @Test func secondFactorsAreOffByDefaultAndReadFromTheMFASection() async throws {
        try await withWorkspace { workspace in
            #expect(try await workspace.configuration().secondFactors.policy == SecondFactorPolicy())
            let policy = try await workspace.configuration([
                "mfa": ["state": "ENABLED", "maxFactors": 2, "pendingCredentialTtlSeconds": 120, "totp": ["adjacentIntervals": 0, "enrollmentTtlSeconds": 900]]
            ]).secondFactors.policy
            #expect(
                policy
                    == SecondFactorPolicy(isEnabled: true, adjacentIntervals: 0, maximumFactors: 2, challengeLifetime: 120, enrollmentLifetime: 900))
            for bad: [String: Any] in [["mfa.state": "MANDATORY"], ["mfa.totp.adjacentIntervals": 11], ["mfa.maxFactors": 6], ["mfa.pendingCredentialTtlSeconds": 5]] {
                await #expect(throws: ConfigProblems.self, "\(bad)") { try await workspace.configuration(bad) }
            }
        }
    }

    /// No password policy by default; the file sets one in Firebase's shape, within Firebase's bounds, and each bad value
    /// is refused naming its key.
    @Test func thePasswordPolicyIsOffByDefaultAndReadInFirebasesShape() async throws {
        try await withWorkspace { workspace in
            #expect(try await workspace.configuration().passwordPolicy == PasswordPolicy())
            let policy = try await workspace.configuration([
                "passwordPolicy": [
                    "enforcementState": "ENFORCE", "forceUpgradeOnSignin": true,
                    "constraints": ["minLength": 10, "maxLength": 64, "requireLowercase": true, "requireNonAlphanumeric": true],
                ]
            ]).passwordPolicy
            #expect(
                policy
                    == PasswordPolicy(
                        enforcement: .enforce, forceUpgradeOnSignIn: true, minimumLength: 10, maximumLength: 64, requiresLowercase: true,
                        requiresNonAlphanumeric: true))
            let refusals: [([String: Any], String)] = [
                (
                    ["passwordPolicy.enforcementState": "NOTIFY"],
                    #"passwordPolicy.enforcementState: must be one of "OFF", "ENFORCE", got "NOTIFY""#
                ),
                (["passwordPolicy.constraints.minLength": 5], "passwordPolicy.constraints.minLength: must be between 6 and 30, got 5"),
                (["passwordPolicy.constraints.minLength": 31], "passwordPolicy.constraints.minLength: must be between 6 and 30, got 31"),
                (["passwordPolicy.constraints.maxLength": 4097], "passwordPolicy.constraints.maxLength: must be between 6 and 4096, got 4097"),
                (
                    ["passwordPolicy.constraints.minLength": 12, "passwordPolicy.constraints.maxLength": 8],
                    "passwordPolicy.constraints.maxLength: must be between 12 and 4096, got 8"
                ),
            ]
            for (bad, message) in refusals {
                #expect(try await workspace.problems(bad) == [message], "\(bad)")
            }
            let wrongType = try await workspace.problems(["passwordPolicy.constraints.requireNumeric": "yes"])
            #expect(wrongType.count == 1 && wrongType.first?.hasPrefix("passwordPolicy.constraints.requireNumeric:") == true, "\(wrongType)")
        }
    }

    @Test func rateLimitsAreListsOfWindowsWithStandardDefaults() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration([
                "rateLimits": [
                    "sendPerEmail": [["limit": 2, "windowSeconds": 30], ["limit": 9, "windowSeconds": 3600]], "sendPerIP": [String](),
                ]
            ])
            let windows = configuration.rateLimits.limits.windows
            #expect(windows[.sendPerEmail] == [.init(limit: 2, seconds: 30), .init(limit: 9, seconds: 3600)])
            #expect(windows[.sendPerIP] == [])
            #expect(windows[.completePerIP] == RateLimits.standard.windows[.completePerIP])
            #expect(configuration.rateLimits.apiKeyRequestsPerMinute == 600)
            #expect(configuration.server.trustedProxies.isEmpty && configuration.tokens.algorithm == .rs256)

            await #expect(throws: ConfigProblems.self) {
                try await workspace.configuration(["rateLimits.sendPerIP": [["limit": 0, "windowSeconds": 30]]])
            }
            await #expect(throws: ConfigProblems.self) { try await workspace.configuration(["server.trustedProxies": ["10.0.0.0/40"]]) }
        }
    }

    @Test func environmentVariablesOverrideTheFile() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(
                environment: ["LATCHKEY_SERVER_PORT": "9999", "LATCHKEY_SECURITY_SERVER_SECRET": String(repeating: "s", count: 40), "SERVER_PORT": "1"])
            #expect(configuration.server.port == 9999)
            #expect(configuration.security.serverSecret?.count == 40)
        }
    }

    @Test func everyProblemIsReportedWithItsKey() async throws {
        try await withWorkspace { workspace in
            do {
                _ = try await workspace.configuration([
                    "projectId": "", "publicURL": "not a url", "apiKeys": [String](), "mode": "staging", "server.port": "eighty",
                    "emailLink.codeLifetimeSeconds": 86_401,
                ])
                Issue.record("expected configuration problems")
            } catch let problems as ConfigProblems {
                let keys = problems.messages.map { String($0.prefix { $0 != ":" }) }
                #expect(Set(keys) == ["projectId", "publicURL", "apiKeys", "mode", "server.port", "emailLink.codeLifetimeSeconds"])
            }
        }
    }

    @Test(arguments: [1, 600, 86_400])
    func anyCodeLifetimeFromOneSecondToADayIsAccepted(_ seconds: Int) async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["emailLink.codeLifetimeSeconds": seconds])
            #expect(configuration.emailLink.codeLifetimeSeconds == seconds)
        }
    }

    @Test func authorizedDomainsDefaultToThePublicHost() async throws {
        try await withWorkspace { workspace in
            var settings = workspace.settings()
            settings["authorizedDomains"] = nil
            let file = workspace.directory.appendingPathComponent("plain.json")
            try JSONSerialization.data(withJSONObject: settings).write(to: file)
            let configuration = try await AppConfiguration.load(path: file.path, environment: [:])
            #expect(configuration.authorizedDomains == ["auth.example.com"])
        }
    }

    static var smtp: [String: Any] { ["mail.transport": "smtp", "mail.smtp.url": "smtp://127.0.0.1:2525", "mail.smtp.tls": "none"] }

    @Test func aPublicURLThatIsSetButNotAbsoluteIsNamedAsGiven() async throws {
        try await withWorkspace { workspace in
            let messages = try await workspace.problems(Self.smtp.merging(["publicURL": "localhost:8080", "mail.from": NSNull()]) { $1 })
            // The unset sender follows from the public URL, so only the public URL is reported.
            #expect(messages == [#"publicURL: must be an absolute http(s) URL without query, e.g. https://auth.example.com; got "localhost:8080""#])
            #expect(try await workspace.problems(["publicURL": NSNull()]) == [
                "publicURL: is required: an absolute http(s) URL without query, e.g. https://auth.example.com"
            ])
        }
    }

    @Test func aRefusedSenderSaysWhereItCameFrom() async throws {
        try await withWorkspace { workspace in
            let derived = try await workspace.problems(Self.smtp.merging(["publicURL": "http://localhost:8080", "mail.from": NSNull()]) { $1 })
            #expect(derived == [
                #"mail.from: not set, and the default derived from publicURL, "no-reply@localhost", is not usable: SMTP needs an address "#
                    + "whose domain has a dot, such as no-reply@example.com; set mail.from"
            ])
            let configured = try await workspace.problems(["mail.from": "no-reply@exa_mple.com"])
            #expect(configured == [#"mail.from: "no-reply@exa_mple.com" is not usable: address domain is not a valid host name"#])
        }
    }

    @Test func theEmbeddedDefaultSenderAlsoWorksOverSMTP() async throws {
        let path = TestWorkspace.repositoryRoot.appendingPathComponent("config/latchkey.json").path
        let file = try await AppConfiguration.load(path: path, environment: [:])
        let smtp = try await AppConfiguration.load(
            path: path, environment: ["LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_MAIL_SMTP_URL": "smtp://127.0.0.1:2525"])
        #expect(file.mail.transport == .file && smtp.mail.transport == .smtp)
        #expect(smtp.mail.smtp?.envelopeFrom == file.sender.address)
    }

    @Test func invalidJSONIsLocatedByLineAndColumn() async throws {
        try await withWorkspace { workspace in
            let file = workspace.directory.appendingPathComponent("broken.json")
            for (text, place) in [("{\n  \"projectId\": \"p\",\n  oops\n}", "line 3, column 3"), ("{\n  \"projectId\": ", "line 2, column 16")] {
                try Data(text.utf8).write(to: file)
                do {
                    _ = try await AppConfiguration.load(path: file.path, environment: [:])
                    Issue.record("expected \(text) to be refused")
                } catch {
                    #expect("\(error)".contains("is not valid JSON: \(place): "), "\(error)")
                }
            }
        }
    }
}
