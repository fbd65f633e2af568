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
    /// The language folder the page is rendered from, for `<html lang>`; set by `PageRenderer`.
    var language = "en"
    let isInvalid: Bool
    let isAsking: Bool
    let isReported: Bool
    let isLifted: Bool
    /// Whether the address cools off now, and until when (UTC).
    let isCoolingOff: Bool
    let until: String?
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
        until = standing?.until.map { $0.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)) + " UTC" }
        isCoolingOff = until != nil
        email = standing?.report.email.value
        self.token = state == .invalid ? nil : token
        self.coolOffHours = coolOffHours
    }
}
