import Crypto
import Foundation
import LatchkeyDomain

/// App verification (`appVerification`): how Latchkey checks, before it texts a code, that the real app asks. With
/// neither section set, every request is admitted and a start-up line says "App verification is off". See
/// docs/app-verification.md, "App verification".
///
/// - `appVerification.apns` (object, optional): the operator's APNs key, with which `accounts:verifyClient` sends an
///   iOS app's silent push itself (token-based authentication: an ES256 JWT). Needs at least one `apps.ios` entry,
///   whose `bundleId` is the push's topic.
///   - `keyId` (string, required): the key's id, 10 letters or digits (Apple's developer account, Keys).
///   - `teamId` (string, required): the team id, 10 letters or digits.
///   - `keyFile` (string) or `keyEnv` (string, the name of an environment variable): exactly one, holding the key's
///     `.p8` PEM (`-----BEGIN PRIVATE KEY-----`); never the key itself in the file.
///   - `productionURL` (string, default `"https://api.push.apple.com"`), `sandboxURL` (string, default
///     `"https://api.sandbox.push.apple.com"`): where pushes go, by the request's `isSandbox`; https only, since APNs
///     speaks HTTP/2 over TLS.
///   - `caFile` (string, optional): a PEM file of the certificate authorities to trust instead of the system's, for a
///     relay with a private certificate.
///   - `timeoutSeconds` (integer, default `10`, 1 to 60): the deadline of one push; past it `verifyClient` answers
///     503 `UNAVAILABLE`.
/// - `appVerification.captcha` (object, optional): captcha tokens checked with the provider's siteverify API.
///   - `provider` (`"recaptcha"`, `"hcaptcha"` or `"turnstile"`, required).
///   - `secretFile` (string) or `secretEnv` (string, the name of an environment variable): exactly one, holding the
///     site's secret.
///   - `siteverifyURL` (string, default the provider's: `https://www.google.com/recaptcha/api/siteverify`,
///     `https://api.hcaptcha.com/siteverify`, `https://challenges.cloudflare.com/turnstile/v0/siteverify`): https, or
///     http on a loopback host.
///   - `siteKey` (string, optional): the public site key, published at `GET /v1/recaptchaParams` for firebase-js-sdk's
///     `RecaptchaVerifier`.
///   - `minimumScore` (number, default `0.5`, 0 to 1): the least score a token that carries one (reCAPTCHA v3, hCaptcha
///     Enterprise) must have.
///   - `timeoutSeconds` (integer, default `10`, 1 to 60): the deadline of one check; past it the send is refused with
///     503 `UNAVAILABLE`.
package struct AppVerificationConfiguration: Sendable {
    /// The APNs key and where pushes go.
    package struct APNs: Sendable {
        package var keyID: String
        package var teamID: String
        package var key: P256.Signing.PrivateKey
        package var productionURL: URL
        package var sandboxURL: URL
        package var caFile: String?
        package var timeoutSeconds: Int
    }

    /// A captcha provider's siteverify API and the site's secret.
    package struct Captcha: Sendable {
        package enum Provider: String, Sendable, CaseIterable {
            case recaptcha
            case hcaptcha
            case turnstile

            var siteverifyURL: String {
                switch self {
                case .recaptcha: "https://www.google.com/recaptcha/api/siteverify"
                case .hcaptcha: "https://api.hcaptcha.com/siteverify"
                case .turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify"
                }
            }
        }

        package var provider: Provider
        package var secret: String
        package var siteverifyURL: URL
        package var siteKey: String?
        package var minimumScore: Double
        package var timeoutSeconds: Int
    }

    package var apns: APNs?
    package var captcha: Captcha?

    init(_ read: inout ConfigSectionReader, iosApps: Int, environment: [String: String]) {
        let apnsKeys = ["keyId", "teamId", "keyFile", "keyEnv", "productionURL", "sandboxURL", "caFile", "timeoutSeconds"]
        let captchaKeys = ["provider", "secretFile", "secretEnv", "siteverifyURL", "siteKey", "minimumScore", "timeoutSeconds"]
        let hasAPNs = apnsKeys.contains { read.isPresent("appVerification.apns.\($0)") }
        let hasCaptcha = captchaKeys.contains { read.isPresent("appVerification.captcha.\($0)") }
        apns = hasAPNs ? Self.apns(&read, iosApps: iosApps, environment: environment) : nil
        captcha = hasCaptcha ? Self.captcha(&read, environment: environment) : nil
    }

    private static func apns(_ read: inout ConfigSectionReader, iosApps: Int, environment: [String: String]) -> APNs? {
        let prefix = "appVerification.apns"
        let keyID = read.string("\(prefix).keyId") ?? ""
        let teamID = read.string("\(prefix).teamId") ?? ""
        for (key, value) in [("keyId", keyID), ("teamId", teamID)] where !isAppleID(value) {
            read.problems.add("\(prefix).\(key)", "must be Apple's 10-character id (letters and digits)")
        }
        if iosApps == 0 { read.problems.add(prefix, "needs at least one app in apps.ios, whose bundleId is the push's topic") }
        let pem = secret(&read, prefix, file: "keyFile", env: "keyEnv", environment: environment)
        let key = pem.flatMap { try? P256.Signing.PrivateKey(pemRepresentation: $0.value) }
        if let pem, key == nil { read.problems.add(pem.key, "must hold an APNs key: a P-256 private key in PEM (the .p8 file)") }
        let productionURL = url(&read, "\(prefix).productionURL", default: "https://api.push.apple.com", allowingLoopbackHTTP: false)
        let sandboxURL = url(&read, "\(prefix).sandboxURL", default: "https://api.sandbox.push.apple.com", allowingLoopbackHTTP: false)
        let caFile = read.string("\(prefix).caFile")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { read.problems.add("\(prefix).caFile", "cannot read \(caFile)") }
        let timeout = read.int("\(prefix).timeoutSeconds", default: 10, in: 1...60)
        guard let key, let productionURL, let sandboxURL, isAppleID(keyID), isAppleID(teamID) else { return nil }
        return APNs(
            keyID: keyID, teamID: teamID, key: key, productionURL: productionURL, sandboxURL: sandboxURL, caFile: caFile, timeoutSeconds: timeout)
    }

    private static func captcha(_ read: inout ConfigSectionReader, environment: [String: String]) -> Captcha? {
        let prefix = "appVerification.captcha"
        let provider: Captcha.Provider? =
            if read.string("\(prefix).provider") == nil {
                nil
            } else {
                read.choice("\(prefix).provider", default: Captcha.Provider.recaptcha)
            }
        if provider == nil { read.problems.add("\(prefix).provider", "is required: \"recaptcha\", \"hcaptcha\" or \"turnstile\"") }
        let secret = secret(&read, prefix, file: "secretFile", env: "secretEnv", environment: environment)
        let siteverifyURL = url(
            &read, "\(prefix).siteverifyURL", default: (provider ?? .recaptcha).siteverifyURL, allowingLoopbackHTTP: true)
        let siteKey = read.string("\(prefix).siteKey")
        var minimumScore = 0.5
        if let score = read.double("\(prefix).minimumScore") {
            if (0...1).contains(score) { minimumScore = score } else { read.problems.add("\(prefix).minimumScore", "must be between 0 and 1") }
        }
        let timeout = read.int("\(prefix).timeoutSeconds", default: 10, in: 1...60)
        guard let provider, let secret, let siteverifyURL else { return nil }
        return Captcha(
            provider: provider, secret: secret.value, siteverifyURL: siteverifyURL, siteKey: siteKey, minimumScore: minimumScore,
            timeoutSeconds: timeout)
    }

    /// The secret in the file `prefix.file` names or the environment variable `prefix.env` names (exactly one of them),
    /// with the key that named it.
    private static func secret(
        _ read: inout ConfigSectionReader, _ prefix: String, file: String, env: String, environment: [String: String]
    ) -> (value: String, key: String)? {
        switch (read.string("\(prefix).\(file)"), read.string("\(prefix).\(env)")) {
        case (let path?, nil):
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                read.problems.add("\(prefix).\(file)", "cannot read \(path)")
                return nil
            }
            return (text.trimmingCharacters(in: .whitespacesAndNewlines), "\(prefix).\(file)")
        case (nil, let variable?):
            guard let value = environment[variable], !value.isEmpty else {
                read.problems.add("\(prefix).\(env)", "environment variable \(variable) is not set")
                return nil
            }
            return (value, "\(prefix).\(env)")
        default:
            read.problems.add(prefix, "needs exactly one of \(file) and \(env)")
            return nil
        }
    }

    /// The URL at `key`: https, or http on a loopback host where `allowingLoopbackHTTP`.
    private static func url(_ read: inout ConfigSectionReader, _ key: String, default defaultValue: String, allowingLoopbackHTTP: Bool) -> URL? {
        let text = read.string(key) ?? defaultValue
        guard let components = URLComponents(string: text), let host = components.host?.lowercased(), !host.isEmpty, components.user == nil,
            components.query == nil, components.scheme == "https"
                || (allowingLoopbackHTTP && components.scheme == "http" && ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)),
            let url = components.url
        else {
            read.problems.add(key, allowingLoopbackHTTP ? "must be an https URL (http only on a loopback host)" : "must be an https URL")
            return nil
        }
        return url
    }

    /// Apple's key and team ids: 10 uppercase letters or digits.
    private static func isAppleID(_ value: String) -> Bool {
        value.count == 10 && value.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
    }
}
