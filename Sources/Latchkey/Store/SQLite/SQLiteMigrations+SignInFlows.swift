/// Then what the reshaped sign-in flows keep.
extension SQLiteMigrations {
    static let signInFlowMigrations: [(name: String, sql: String)] = [
        (
            // What a sign-in stopped at the second factor changes once its code is right (`PendingSignIn`, JSON). Older
            // challenges have none: their sign-ins wrote their changes before they were challenged.
            "v20: changes a second-factor challenge applies",
            "ALTER TABLE second_factor_challenges ADD COLUMN pending_sign_in TEXT;"
        )
    ]
}
