import Foundation
import LatchkeyDomain

/// How texts (verification codes) leave: they go through the same outbox as mail, with its workers, lease and retries
/// (`mail.workers`, `mail.maxAttempts`, `mail.retry.*`), to the gateway named here.
///
/// - `sms.gateway` (`"file"`, `"webhook"` or `"twilio"`, default `"file"`): `file` writes each text as a JSON file,
///   shown in the development mailbox; `webhook` POSTs it as signed JSON to `sms.webhook.url`; `twilio` sends it
///   through Twilio's Messages API.
/// - `sms.file.directory` (string, default `"data/texts"`): where the `file` gateway writes.
/// - `sms.timeoutSeconds` (integer, default `10`, 1 to 120): the deadline of one call to the gateway, connection
///   included; past it the text is retried. With `webhook` or `twilio`, must be shorter than `mail.retry.leaseSeconds`.
/// - `sms.webOTPHost` (string, default the public URL's host): the host of the WebOTP line (`@host #code`) that ends
///   every text, which must be the host of the page that reads the code (your app's, when it is not on Latchkey's).
/// - `sms.webhook.url` (string, required for `webhook`): an absolute http(s) URL.
/// - `sms.webhook.secretEnv` or `sms.webhook.secretFile` (string, one required for `webhook`): the environment
///   variable or the file holding the signing secret (`whsec_` and base64, as Standard Webhooks writes it, or any
///   string), which never goes in the JSON file.
/// - `sms.twilio.baseURL` (string, default `"https://api.twilio.com"`): where Twilio's API is (a stub in tests).
/// - `sms.twilio.accountSid` (string, required for `twilio`).
/// - `sms.twilio.from` or `sms.twilio.messagingServiceSid` (string, exactly one required for `twilio`): the sending
///   number (E.164) or the messaging service that picks one.
/// - `sms.twilio.authTokenEnv` or `sms.twilio.authTokenFile` (string, one required for `twilio`): where the auth
///   token is.
/// - `sms.codeLifetimeSeconds` (integer, default `300`, 60 to 3600): how long a texted code can be used.
/// - `sms.regionConfig` (Firebase's `smsRegionConfig`, default every region): `{"allowByDefault": {"disallowedRegions":
///   ["XX", …]}}` texts every region but those listed, `{"allowlistOnly": {"allowedRegions": ["XX", …]}}` only those
///   listed (ISO 3166 alpha-2 codes, as libphonenumber places a number). A number of another region is refused before
///   anything is queued.
package struct SMSConfiguration: Sendable {
    /// The ways a text can leave Latchkey.
    package enum Gateway: String, Sendable, CaseIterable {
        case file
        case webhook
        case twilio
    }

    /// `sms.webhook`.
    package struct Webhook: Sendable {
        package var url: URL
        package var secret: String
    }

    /// `sms.twilio`.
    package struct Twilio: Sendable {
        package var baseURL: URL
        package var accountSID: String
        package var sender: TwilioTextGateway.Sender
        package var authToken: String
    }

    package var gateway: Gateway
    package var fileDirectory: String
    package var timeoutSeconds: Int
    package var webOTPHost: String
    package var webhook: Webhook?
    package var twilio: Twilio?
    package var codeLifetime: TimeInterval
    package var regions: SMSRegionPolicy

    init(_ read: inout ConfigSectionReader, publicHost: String?, lease: TimeInterval, environment: [String: String]) {
        gateway = read.choice("sms.gateway", default: Gateway.file)
        fileDirectory = read.string("sms.file.directory") ?? "data/texts"
        timeoutSeconds = read.int("sms.timeoutSeconds", default: 10, in: 1...120)
        if gateway != .file, TimeInterval(timeoutSeconds) >= lease {
            // A lease shorter than a call could hand the same text to a second worker mid-call.
            read.problems.add("sms.timeoutSeconds", "must be shorter than mail.retry.leaseSeconds (\(Int(lease)))")
        }
        let host = read.string("sms.webOTPHost")
        if let host, host.isEmpty || host.contains(where: { $0 == " " || $0 == "/" || $0 == "#" || $0.isNewline }) {
            read.problems.add("sms.webOTPHost", "must be a host name such as app.example.com, got \"\(host)\"")
        }
        webOTPHost = host ?? publicHost ?? "localhost"
        let isWebhook = gateway == .webhook
        if isWebhook { webhook = Self.webhook(&read, environment: environment) } else { read.learnKeys { _ = Self.webhook(&$0, environment: [:]) } }
        if gateway == .twilio {
            twilio = Self.twilio(&read, environment: environment)
        } else {
            read.learnKeys { _ = Self.twilio(&$0, environment: [:]) }
        }
        codeLifetime = TimeInterval(read.int("sms.codeLifetimeSeconds", default: Int(PhoneCodes.defaultLifetime), in: 60...3600))
        regions = Self.regions(&read)
    }

    /// `sms.regionConfig`: one of Firebase's two shapes, its regions two-letter codes.
    private static func regions(_ read: inout ConfigSectionReader) -> SMSRegionPolicy {
        let (denied, allowed) = (read.stringArray("sms.regionConfig.allowByDefault.disallowedRegions"),
                                 read.stringArray("sms.regionConfig.allowlistOnly.allowedRegions"))
        for (key, regions) in [("sms.regionConfig.allowByDefault.disallowedRegions", denied), ("sms.regionConfig.allowlistOnly.allowedRegions", allowed)] {
            for region in regions ?? [] where region.count != 2 || !region.allSatisfy({ $0.isASCII && $0.isUppercase }) {
                read.problems.add(key, "must list ISO 3166 alpha-2 codes such as \"US\", got \"\(region)\"")
            }
        }
        switch (denied, allowed) {
        case (let denied?, nil): return .allowByDefault(disallowed: Set(denied))
        case (nil, let allowed?): return .allowlistOnly(allowed: Set(allowed))
        case (.some, .some):
            read.problems.add("sms.regionConfig", "give allowByDefault or allowlistOnly, not both")
            return .everywhere
        case (nil, nil): return .everywhere
        }
    }

    /// The gateway for the start-up log, with where it sends (a webhook's host only: its path or query may hold a token).
    package var summary: String {
        switch gateway {
        case .file: "file (\(fileDirectory))"
        case .webhook: "webhook (\(webhook?.url.host() ?? "?"))"
        case .twilio: "twilio (\(twilio?.baseURL.host() ?? "?"), \(twilio?.accountSID ?? "?"))"
        }
    }

    private static func webhook(_ read: inout ConfigSectionReader, environment: [String: String]) -> Webhook? {
        let url = httpURL(&read, "sms.webhook.url", required: true)
        let secret = secret(&read, env: "sms.webhook.secretEnv", file: "sms.webhook.secretFile", environment: environment)
        guard let url, let secret else { return nil }
        return Webhook(url: url, secret: secret)
    }

    private static func twilio(_ read: inout ConfigSectionReader, environment: [String: String]) -> Twilio? {
        let baseURL = httpURL(&read, "sms.twilio.baseURL", required: false) ?? URL(string: "https://api.twilio.com")
        let accountSID = read.string("sms.twilio.accountSid")
        if accountSID?.isEmpty ?? true {
            read.problems.add("sms.twilio.accountSid", "is required for sms.gateway \"twilio\"")
        } else if let accountSID, !accountSID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            read.problems.add("sms.twilio.accountSid", "must be letters and digits (AC…), got \"\(accountSID)\"")
        }
        var sender: TwilioTextGateway.Sender?
        switch (read.string("sms.twilio.from"), read.string("sms.twilio.messagingServiceSid")) {
        case (let from?, nil): sender = .number(from)
        case (nil, let service?): sender = .messagingService(service)
        case (.some, .some): read.problems.add("sms.twilio.from", "give sms.twilio.from or sms.twilio.messagingServiceSid, not both")
        case (nil, nil): read.problems.add("sms.twilio.from", "is required for sms.gateway \"twilio\" (or sms.twilio.messagingServiceSid)")
        }
        let token = secret(&read, env: "sms.twilio.authTokenEnv", file: "sms.twilio.authTokenFile", environment: environment)
        guard let baseURL, let accountSID, let sender, let token else { return nil }
        return Twilio(baseURL: baseURL, accountSID: accountSID, sender: sender, authToken: token)
    }

    /// An absolute http(s) URL at `key`.
    private static func httpURL(_ read: inout ConfigSectionReader, _ key: String, required: Bool) -> URL? {
        guard let text = read.string(key) else {
            if required { read.problems.add(key, "is required for sms.gateway \"\(key.split(separator: ".")[1])\"") }
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host() != nil else {
            read.problems.add(key, "must be an absolute http(s) URL, got \"\(text)\"")
            return nil
        }
        return url
    }

    /// The secret named by `env` (an environment variable) or `file` (its contents, trimmed); exactly one is given.
    private static func secret(_ read: inout ConfigSectionReader, env: String, file: String, environment: [String: String]) -> String? {
        switch (read.string(env), read.string(file)) {
        case (let variable?, nil):
            guard let value = environment[variable], !value.isEmpty else {
                read.problems.add(env, "environment variable \(variable) is not set")
                return nil
            }
            return value
        case (nil, let path?):
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8), !contents.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                read.problems.add(file, "cannot read \(path)")
                return nil
            }
            return contents.trimmingCharacters(in: .whitespacesAndNewlines)
        case (.some, .some):
            read.problems.add(env, "give \(env) or \(file), not both")
            return nil
        case (nil, nil):
            read.problems.add(env, "is required (or \(file)): the secret never goes in the configuration file")
            return nil
        }
    }
}
