import Foundation
import LatchkeyWire

/// The CSV `firebase auth:export` writes: no header, one user a line, a trailing comma, and these columns: uid, email,
/// email verified, password hash, salt, display name, photo URL, then id, email, display name and photo URL for each
/// of Google, Facebook, Twitter and GitHub, then creation time, last sign-in (milliseconds), phone number, and in
/// newer versions disabled and custom claims. A display name with a comma is quoted but its quotes are not doubled
/// (custom claims' are): a quote inside a quoted field that no comma or line end follows is kept as it is.
package enum FirebaseCSV {
    static let providerColumns = [("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19)]
    /// Columns every version writes, up to the phone number, and the most any writes (with the trailing comma's empty
    /// field): more means a field was split where it should not have been.
    static let columns = 26...29

    static func users(in data: Data) throws(FirebaseExportFile.Unreadable) -> [FirebaseExportFile.User] {
        var users: [FirebaseExportFile.User] = []
        for (index, row) in try rows(String(decoding: data, as: UTF8.self)).enumerated() where row != [""] {
            guard columns.contains(row.count) else {
                throw FirebaseExportFile.Unreadable(
                    description: "line \(index + 1) has \(row.count) columns; `firebase auth:export` writes \(columns.lowerBound) to \(columns.upperBound)")
            }
            for column in [23, 24] where !(row[column].isEmpty || Int64(jsonInteger: row[column]) != nil) {
                throw FirebaseExportFile.Unreadable(description: "line \(index + 1): column \(column + 1) is not a time in milliseconds")
            }
            users.append(user(row))
        }
        return users
    }

    private static func user(_ row: [String]) -> FirebaseExportFile.User {
        func field(_ index: Int) -> String? { index < row.count && !row[index].isEmpty ? row[index] : nil }
        var user = FirebaseExportFile.User(localId: row[0])
        user.email = field(1)
        user.emailVerified = field(2) == "true"
        user.passwordHash = field(3)
        user.salt = field(4)
        user.displayName = field(5)
        user.photoUrl = field(6)
        let providers = providerColumns.compactMap { provider, column in
            field(column).map { UploadAccountRequest.Provider(providerId: provider, rawId: $0, email: field(column + 1), displayName: field(column + 2), photoUrl: field(column + 3)) }
        }
        user.providerUserInfo = providers.isEmpty ? nil : providers
        user.createdAt = field(23)
        user.lastSignedInAt = field(24)
        user.phoneNumber = field(25)
        user.disabled = field(26) == "true"
        user.customAttributes = field(27)
        return user
    }

    /// Records as RFC 4180 reads them (fields split at commas outside quotes, records at line breaks outside quotes), but
    /// with Firebase's undoubled quotes: inside a quoted field, a quote before a comma or a line end closes it, two quotes
    /// before anything else are one, and a lone quote is itself.
    package static func rows(_ text: String) throws(FirebaseExportFile.Unreadable) -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        func endsField(_ index: Int) -> Bool { index >= scalars.count || [",", "\n", "\r"].contains(scalars[index]) }
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoted {
                if scalar != "\"" {
                    field.append(scalar)
                } else if endsField(index) {
                    quoted = false
                } else {
                    field.append(scalar)
                    if scalars[index] == "\"", !endsField(index + 1) { index += 1 }
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                row.append(String(field))
                field = String.UnicodeScalarView()
            case "\r" where index < scalars.count && scalars[index] == "\n": break
            case "\n", "\r":
                row.append(String(field))
                rows.append(row)
                (row, field) = ([], String.UnicodeScalarView())
            default: field.append(scalar)
            }
        }
        guard !quoted else { throw FirebaseExportFile.Unreadable(description: "a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty {
            row.append(String(field))
            rows.append(row)
        }
        return rows
    }
}
