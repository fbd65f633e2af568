
extension CopiedTable {
    /// Every table that holds state, in an order that respects foreign keys (accounts before their identities,
    /// sessions before their refresh tokens). A test compares this with both stores' migrated schemas, so a migration
    /// that adds a table or a column cannot leave it out of the copy unnoticed.
    package static let all: [CopiedTable] = [
        accounts, identities,
        CopiedTable(
            "sessions", key: ["id"],
            [
                ("id", .text), ("account_id", .text), ("sign_in_provider", .text), ("second_factor", .text), ("auth_time", .real),
                ("created_at", .real), ("revoked_at", .real), ("revoked_with_account", .boolean),
                ("developer_claims", .text), ("second_factor_kind", .text),
            ]),
        CopiedTable(
            "refresh_tokens", key: ["id"],
            [("id", .integer), ("token_hash", .blob), ("session_id", .text), ("created_at", .real), ("rotated_at", .real)]),
        CopiedTable(
            "pending_requests", key: ["id"],
            [
                ("id", .integer), ("code_hash", .blob), ("email", .text), ("created_at", .real), ("expires_at", .real), ("language", .text),
                ("continue_url", .text), ("used_at", .real), ("mismatch_count", .integer), ("ios_bundle_id", .text),
                ("android_package_name", .text), ("android_install_app", .boolean), ("handles_code_in_app", .boolean), ("typed_code_hash", .blob),
                ("typed_code_misses", .integer), ("action", .text), ("account_id", .text), ("new_email", .text),
            ]),
        CopiedTable(
            "outbox", key: ["id"],
            [
                ("id", .integer), ("recipient", .text), ("format", .text), ("sealed_message", .sealed(.outboxMessage)), ("created_at", .real),
                ("status", .text), ("attempts", .integer), ("next_attempt_at", .real), ("lease_until", .real), ("claim_token", .text),
                ("last_error", .text), ("sent_at", .real),
            ]),
        CopiedTable(
            "audit_events", key: ["id"],
            [
                ("id", .integer), ("at", .real), ("kind", .text), ("account_id", .text), ("email", .text), ("ip_address", .text),
                ("user_agent", .text), ("detail", .text),
            ]),
        CopiedTable("cool_offs", key: ["id"], [("id", .integer), ("email", .text), ("until", .real)]),
        CopiedTable(
            "rate_counters", key: ["id"],
            [("id", .integer), ("key", .text), ("window_start", .integer), ("count", .integer), ("expires_at", .integer)]),
        CopiedTable(
            "signing_keys", key: ["id"],
            [
                ("id", .text), ("algorithm", .text), ("sealed_private_key", .sealed(.signingKey)), ("created_at", .real),
                ("activates_at", .real),
            ]),
        CopiedTable(
            "provider_sessions", key: ["id"],
            [
                ("id", .integer), ("state_hash", .blob), ("session_id", .text), ("provider_id", .text), ("redirect_uri", .text),
                ("context", .text), ("handoff", .text), ("created_at", .real), ("expires_at", .real),
            ]),
        CopiedTable(
            "pending_credentials", key: ["id"],
            [("id", .integer), ("token_hash", .blob), ("identity", .text), ("context", .text), ("expires_at", .real)]),
        CopiedTable(
            "provider_configs", key: ["id"],
            [
                ("id", .text), ("kind", .text), ("display_name", .text), ("enabled", .boolean), ("issuer", .text), ("client_id", .text),
                ("sealed_client_secret", .sealed(.providerSecret)), ("response_type", .text), ("created_at", .real),
            ]),
        secondFactors,
        CopiedTable(
            "pending_enrollments", key: ["id"],
            [("id", .integer), ("session_hash", .blob), ("account_id", .text), ("sealed_secret", .sealed(.secondFactorSecret)), ("expires_at", .real)]),
        CopiedTable(
            "second_factor_challenges", key: ["id"],
            [
                ("id", .integer), ("credential_hash", .blob), ("account_id", .text), ("sign_in_provider", .text), ("pending_sign_in", .text),
                ("attempts", .integer), ("expires_at", .real),
            ]),
        CopiedTable(
            "phone_verifications", key: ["id"],
            [
                ("id", .integer), ("session_hash", .blob), ("purpose", .text), ("phone_number", .text), ("code_hash", .blob), ("account_id", .text),
                ("factor_id", .text), ("attempts", .integer), ("created_at", .real), ("expires_at", .real),
            ]),
        CopiedTable("app_receipts", key: ["id"], [("id", .integer), ("receipt_hash", .blob), ("secret_hash", .blob), ("expires_at", .real)]),
    ]

    static let accounts = CopiedTable(
        "accounts", key: ["id"],
        [
            ("id", .text), ("email", .text), ("email_verified", .boolean), ("password_hash", .text), ("disabled", .boolean),
            ("valid_since", .real), ("created_at", .real), ("last_sign_in_at", .real), ("display_name", .text), ("photo_url", .text),
            ("custom_attributes", .text), ("phone_number", .text),
        ])

    static let secondFactors = CopiedTable(
        "second_factors", key: ["account_id", "id"],
        [
            ("id", .text), ("account_id", .text), ("display_name", .text), ("enrolled_at", .real), ("sealed_secret", .sealed(.secondFactorSecret)),
            ("last_used_step", .integer), ("phone_number", .text),
        ])

    static let identities = CopiedTable(
        "identities", key: ["provider_id", "provider_uid"],
        [
            ("provider_id", .text), ("provider_uid", .text), ("account_id", .text), ("email", .text), ("email_verified", .boolean),
            ("display_name", .text), ("photo_url", .text), ("raw_profile", .text), ("created_at", .real),
        ])
}
