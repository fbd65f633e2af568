import Foundation
import LatchkeyWire

/// The CSV `firebase auth:export` writes: no header, one user a line, a trailing comma, and these columns: uid, email,
/// email verified, password hash, salt, display name, photo URL, then id, email, display name and photo URL for each
/// of Google, Facebook, Twitter and GitHub, then creation time, last sign-in (milliseconds), phone number, and in
/// newer versions disabled and custom claims. Fields with a comma or a quote are quoted, quotes doubled.
enum FirebaseCSV {
    static let providerColumns = [("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19)]
    /// Columns every version writes, up to the phone number.
    static let shortestRow = 26

    static func users(in data: Data) throws(FirebaseExportFile.Unreadable) -> [FirebaseExportFile.User] {
        var users: [FirebaseExportFile.User] = []
        for (index, row) in try rows(String(decoding: data, as: UTF8.self)).enumerated() where row != [""] {
            guard row.count >= shortestRow else {
                throw FirebaseExportFile.Unreadable(description: "line \(index + 1) has \(row.count) columns; `firebase auth:export` writes at least \(shortestRow)")
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

    /// RFC 4180 records: fields split at commas outside quotes, records at line breaks outside quotes.
    static func rows(_ text: String) throws(FirebaseExportFile.Unreadable) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r" where pending == "\n": break
            case "\n", "\r":
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw FirebaseExportFile.Unreadable(description: "a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
