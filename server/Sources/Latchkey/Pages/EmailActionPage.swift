import LatchkeyDomain

/// The landing page of an email action other than sign-in (`/__/auth/action?mode=resetPassword|verifyEmail|…`): a
/// live code gets a form whose script posts it to the API (a scanner's GET spends nothing), any other one a page saying
/// why it cannot be used. The result messages are all on the page, hidden, for the script to show.
struct EmailActionPage {
    let appName: String
    let nonce: String
    /// The language folder the page is rendered from, for `<html lang>`; set by `PageRenderer`.
    var language = "en"
    let resetPassword: Bool
    let verifyEmail: Bool
    let verifyAndChangeEmail: Bool
    let recoverEmail: Bool
    let isLive: Bool
    let isUnknown: Bool
    let isExpired: Bool
    let isUsed: Bool
    /// The code's address (for a reset, also the password manager's user name), and the other address of a change.
    let email: String?
    let newEmail: String?
    /// Where the user goes back to the app or site, without any code.
    let backURL: String?
    let minimumPasswordLength = PasswordHasher.minimumLength

    /// The page for the live code of `pending`, or with `refused` (and no request) why the code cannot be used.
    init(action: EmailAction, live pending: PendingRequest?, refused: ActionPage.Outcome?, appName: String, nonce: String, backURL: String?) {
        self.appName = appName
        self.nonce = nonce
        resetPassword = action == .resetPassword
        verifyEmail = action == .verifyEmail
        verifyAndChangeEmail = action == .verifyAndChangeEmail
        recoverEmail = action == .recoverEmail
        isLive = pending != nil
        isExpired = pending == nil && refused == .expired
        isUsed = pending == nil && refused == .used
        isUnknown = pending == nil && !isExpired && !isUsed
        email = pending?.email.value
        newEmail = pending?.newEmail?.value
        self.backURL = backURL
    }
}
