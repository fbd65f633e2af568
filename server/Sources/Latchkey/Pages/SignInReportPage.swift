import Foundation
import LatchkeyDomain

/// The page of a sign-in email's "this wasn't me" link (`/__/auth/not-me`): exactly one of its states is true. Opening
/// it changes nothing; its buttons post the link's token back.
struct SignInReportPage {
    enum State {
        /// Not a token of this server, or older than `SignInReport.lifetime`.
        case invalid
        /// Asks whether to report, or while the address cools off whether to lift it.
        case asking
        case reported
        case lifted
    }

    let appName: String
    let nonce: String
    /// The language folder the page is rendered from, for `<html lang>`; set by `PageRenderer`, and `until` is then
    /// written for its readers.
    var language = "en" {
        didSet { until = coolOffEnd.map { Self.written($0, language: language) } }
    }
    let isInvalid: Bool
    let isAsking: Bool
    let isReported: Bool
    let isLifted: Bool
    /// Whether the address cools off now, and until when: as the page's language writes a date and time, in UTC.
    let isCoolingOff: Bool
    private let coolOffEnd: Date?
    private(set) var until: String?
    let email: String?
    let token: String?
    /// `emailLink.coolOffSeconds` in hours, rounded up.
    let coolOffHours: Int

    init(_ state: State, standing: CoolOffs.Standing?, token: String?, coolOffHours: Int, appName: String, nonce: String) {
        self.appName = appName
        self.nonce = nonce
        isInvalid = state == .invalid
        isAsking = state == .asking
        isReported = state == .reported
        isLifted = state == .lifted
        let end = standing?.until
        coolOffEnd = end
        until = end.map { Self.written($0, language: "en") }
        isCoolingOff = end != nil
        email = standing?.report.email.value
        self.token = state == .invalid ? nil : token
        self.coolOffHours = coolOffHours
    }

    /// `date` as a reader of `language` writes it (`28 novembre 2026 à 17:00 UTC`), in UTC: the page knows no
    /// reader's time zone.
    static func written(_ date: Date, language: String) -> String {
        let style = Date.FormatStyle(date: .long, time: .shortened, locale: Locale(identifier: language), timeZone: .gmt)
        return date.formatted(style) + " UTC"
    }
}
