import LatchkeyDomain

/// Why `latchkey copy` wrote nothing.
package enum StoreCopyRefusal: Error, Equatable, CustomStringConvertible {
    /// The target holds rows (of these tables): a copy only fills a new, empty database.
    case targetNotEmpty([StoreCopier.TableCount])
    /// The two configurations name different server secrets.
    case secretsDiffer
    /// A sealed value of the source does not open with the target's server secret.
    case sealedUnderAnotherSecret(CopiedTable, CopiedTable.Column)

    package var description: String {
        switch self {
        case .targetNotEmpty(let counts):
            let rows = counts.map { "\($0.table.name): \($0.rows)" }.joined(separator: ", ")
            return "the target store is not empty (\(rows)); copy only into a new, empty database (nothing was copied)"
        case .secretsDiffer:
            return "the two configurations use different server secrets; the target must use the source's "
                + "(the same security.serverSecretFile contents or LATCHKEY_SECURITY_SERVER_SECRET), or no code, refresh token, "
                + "queued message or signing key would work on it (nothing was copied)"
        case .sealedUnderAnotherSecret(let table, let column):
            return "\(table.name).\(column.name) in the source does not open with the target's server secret; the target must use "
                + "the secret the source was running with (nothing was copied)"
        }
    }
}
