/// v24: app verification (#34), apart from the phone numbers' and SMS delivery's migrations of the same issue.
extension SQLiteMigrations {
    static let appVerificationMigrations: [(name: String, sql: String)] = [
        (
            // The receipts `accounts:verifyClient` hands out (`AppReceipt`), by the keyed hashes of the receipt and of the
            // secret its silent push carried; claimed by deleting the row.
            "v24: app verification receipts",
            """
            CREATE TABLE app_receipts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                receipt_hash BLOB NOT NULL UNIQUE,
                secret_hash BLOB NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX app_receipts_by_expiry ON app_receipts(expires_at);
            """
        )
    ]
}
