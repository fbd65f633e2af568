import LatchkeyDomain

/// Abuse limits.
///
/// - `rateLimits.sendPerEmail`, `rateLimits.sendPerIP`, `rateLimits.completePerIP`, `rateLimits.signUpPerIP`,
///   `rateLimits.passwordPerIP`, `rateLimits.passwordPerEmail`, `rateLimits.secondFactorPerAccount`, `rateLimits.verifyClientPerIP`,
///   `rateLimits.textPerNumber`, `rateLimits.textPerIP`, `rateLimits.textPerCallingCode`, `rateLimits.textBudget` (each a
///   list of `{"limit": N, "windowSeconds": S}`;
///   `[]` turns the rule off): defaults 1 a minute, 5 an hour and 20 a day per address; 10 sends in 5 minutes per IP;
///   30 completions (email link or password) in 5 minutes per IP; 20 sign-ups (password or anonymous) an hour per IP;
///   30 failed password sign-ins in 5 minutes per IP and 10 in 15 minutes per address; 10 wrong second-factor codes an
///   hour and 30 a day per account (a full window refuses every code, right ones too, until it ends); 10 `verifyClient` calls
///   (each a silent push) in 5 minutes and 50 a day per IP; one text a minute, 5 an hour and 10 a day per number, 10 in
///   5 minutes and 50 a day per IP, 200 an hour and 1,000 a day per calling code, and 2,000 a day in all (past which
///   only second-factor challenges are texted, and sends answer `QUOTA_EXCEEDED`). A window opens with a
///   subject's first attempt and lasts `windowSeconds`.
/// - `rateLimits.ipv6PrefixLength` (integer, default `64`, 32 to 128): per-IP rules count an IPv6 client by its
///   network of this length; IPv4 clients are counted by address.
/// - `rateLimits.apiKeyRequestsPerMinute` (integer, default `600`, `0` for none): requests per API key per
///   minute, counted per instance.
package struct RateLimitConfiguration: Sendable {
    package var limits: RateLimits
    package var apiKeyRequestsPerMinute: Int

    init(_ read: inout ConfigSectionReader) {
        limits = .standard
        for rule in RateLimits.Rule.allCases where rule != .apiKeyPerMinute {
            if let windows = Self.windows(&read, "rateLimits.\(rule.rawValue)") { limits.windows[rule] = windows }
        }
        limits.ipv6PrefixLength = read.int("rateLimits.ipv6PrefixLength", default: limits.ipv6PrefixLength, in: 32...128)
        apiKeyRequestsPerMinute = read.int("rateLimits.apiKeyRequestsPerMinute", default: 600, in: 0...10_000_000)
    }

    /// The list at `key`, or nil when the key is absent.
    private static func windows(_ read: inout ConfigSectionReader, _ key: String) -> [RateLimits.Window]? {
        // An empty list arrives as a list of strings; a list of objects as numbered keys (`JSONConfigFile`).
        if let plain = read.stringArray(key) {
            if !plain.isEmpty { read.problems.add(key, "must be a list of {\"limit\": N, \"windowSeconds\": S}") }
            return []
        }
        var windows: [RateLimits.Window] = []
        var index = 0
        while read.int("\(key).\(index).limit") != nil || read.int("\(key).\(index).windowSeconds") != nil {
            let limit = read.int("\(key).\(index).limit")
            let seconds = read.int("\(key).\(index).windowSeconds")
            if let limit, let seconds, (1...1_000_000).contains(limit), (1...604_800).contains(seconds) {
                windows.append(RateLimits.Window(limit: limit, seconds: seconds))
            } else {
                read.problems.add("\(key)[\(index)]", "needs a limit from 1 to 1000000 and windowSeconds from 1 to 604800")
            }
            index += 1
        }
        return index == 0 ? nil : windows
    }
}
