import Foundation
import LatchkeyWire

/// The CSV `firebase auth:export` writes: no header, one user a line, a trailing comma, and these columns: uid, email,
/// email verified, password hash, salt, display name, photo URL; id, email, display name and photo URL for Google,
/// Facebook, Twitter and GitHub; creation time, last sign-in (milliseconds), phone number, disabled, custom claims;
/// since firebase-tools 15.19, the same four for Apple, Microsoft, Game Center, Play Games, LinkedIn and Yahoo.
///
/// Versions since 15.19 write 53 columns and quote as RFC 4180 does. Older ones quoted a display name with a comma
/// without doubling its quotes (custom claims' they doubled, and before 11.25.2 left unquoted): a file that does not
/// read as 53-column RFC 4180 is read the older way.
package enum FirebaseCSV {
    static let providerColumns = [
        ("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19), ("apple.com", 28), ("microsoft.com", 32),
        ("gc.apple.com", 36), ("playgames.google.com", 40), ("linkedin.com", 44), ("yahoo.com", 48),
    ]
    /// The columns of a line, with the trailing comma's empty field: current versions write 53, older ones 26 to 29.
    static let currentColumns = 53
    static let olderColumns = 26...29
    /// The display names older versions quoted without doubling their quotes: the user's and the first four providers'.
    static let nameColumns: Set<Int> = [5, 9, 13, 17, 21]
    /// Custom claims, whose quotes every version doubles except after a backslash (JSON's escaped quotes).
    static let claimsColumn = 27

    static func users(in data: Data) throws(FirebaseExportFile.Unreadable) -> [FirebaseExportFile.User] {
        let text = String(decoding: data, as: UTF8.self)
        // The quoting follows the layout: no version wrote one without the other.
        var rows = (try? Self.rows(text)) ?? []
        if rows.isEmpty || rows.contains(where: { $0 != [""] && $0.count != currentColumns }) {
            rows = try Self.rows(text, undoubledNames: true)
            if let line = rows.indices.first(where: { rows[$0] != [""] && !olderColumns.contains(rows[$0].count) }) {
                throw FirebaseExportFile.Unreadable(
                    description: "line \(line + 1) has \(rows[line].count) columns; `firebase auth:export` writes 53, or 26 to 29")
            }
        }
        var users: [FirebaseExportFile.User] = []
        for (index, row) in rows.enumerated() where row != [""] {
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

    /// Records as RFC 4180 reads them: fields split at commas outside quotes, records at line breaks outside quotes, two
    /// quotes inside a quoted field one quote; a lone quote that no comma or line end follows is kept, and so is one
    /// after a backslash in the claims column. With `undoubledNames` (the older layout), two quotes before a field's
    /// end in a name column are the name's last quote and the field's, and unquoted claims run to the line's last comma.
    package static func rows(_ text: String, undoubledNames: Bool = false) throws(FirebaseExportFile.Unreadable) -> [[String]] {
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
                if scalar != "\"" || (row.count == claimsColumn && index >= 2 && scalars[index - 2] == "\\") {
                    field.append(scalar)
                } else if endsField(index) {
                    quoted = false
                } else {
                    field.append(scalar)
                    let isNameEnd = undoubledNames && nameColumns.contains(row.count) && endsField(index + 1)
                    if scalars[index] == "\"", !isNameEnd { index += 1 }
                }
                continue
            }
            if undoubledNames, scalar == "{", field.isEmpty, row.count == claimsColumn {
                // Claims written as they are: their commas are theirs, up to the line's trailing comma.
                let lineEnd = scalars[index...].firstIndex { $0 == "\n" || $0 == "\r" } ?? scalars.endIndex
                let end = scalars[index..<lineEnd].lastIndex(of: ",") ?? lineEnd
                field.append(scalar)
                field.append(contentsOf: scalars[index..<end])
                index = end
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
