import Foundation
import LatchkeyWire

/// The users file `firebase auth:export` writes and `firebase auth:import` reads: JSON (`{"users": […]}`, times as
/// decimal strings of milliseconds, hashes in standard base64), or CSV (one user a line, no header, Firebase's columns).
/// `latchkey import` reads both; `latchkey export` writes the JSON.
package struct FirebaseExportFile: Codable, Sendable, Equatable {
    package var users: [User]

    package init(users: [User]) {
        self.users = users
    }

    /// One user, with the keys Firebase's CLI writes and accepts.
    package struct User: Codable, Sendable, Equatable {
        package var localId: String?
        package var email: String?
        package var emailVerified: Bool?
        package var passwordHash: String?
        package var salt: String?
        package var displayName: String?
        package var photoUrl: String?
        package var lastSignedInAt: String?
        package var createdAt: String?
        package var phoneNumber: String?
        package var disabled: Bool?
        package var customAttributes: String?
        package var providerUserInfo: [UploadAccountRequest.Provider]?
        /// Second factors: the phone factors current firebase-tools exports (and `latchkey export` writes).
        package var mfaInfo: [MfaFactor]?

        package init(localId: String) {
            self.localId = localId
        }

        /// Times are read as a JSON number or a decimal string, and kept as the string Firebase writes.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            localId = try container.decodeIfPresent(String.self, forKey: .localId)
            email = try container.decodeIfPresent(String.self, forKey: .email)
            emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
            passwordHash = try container.decodeIfPresent(String.self, forKey: .passwordHash)
            salt = try container.decodeIfPresent(String.self, forKey: .salt)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
            lastSignedInAt = try container.decodeInt64IfPresent(forKey: .lastSignedInAt).map(String.init)
            createdAt = try container.decodeInt64IfPresent(forKey: .createdAt).map(String.init)
            phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
            disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled)
            customAttributes = try container.decodeIfPresent(String.self, forKey: .customAttributes)
            providerUserInfo = try container.decodeIfPresent([UploadAccountRequest.Provider].self, forKey: .providerUserInfo)
            mfaInfo = try container.decodeIfPresent([MfaFactor].self, forKey: .mfaInfo)
        }

        /// The user as `accounts:batchCreate` takes it.
        var uploaded: UploadAccountRequest.User {
            var user = UploadAccountRequest.User(localId: localId, email: email)
            user.emailVerified = emailVerified
            user.passwordHash = passwordHash
            user.salt = salt
            user.displayName = displayName
            user.photoUrl = photoUrl
            user.lastLoginAt = lastSignedInAt.flatMap(Int64.init(jsonInteger:))
            user.createdAt = createdAt.flatMap(Int64.init(jsonInteger:))
            user.phoneNumber = phoneNumber
            user.disabled = disabled
            user.customAttributes = customAttributes
            user.providerUserInfo = providerUserInfo
            user.mfaInfo = mfaInfo
            return user
        }
    }

    /// Why a file cannot be read, in words for the operator.
    package struct Unreadable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads a file in either format: CSV when its name ends in `.csv`, as Firebase's CLI decides, JSON otherwise.
    package static func read(_ data: Data, named name: String) throws(Unreadable) -> FirebaseExportFile {
        if name.lowercased().hasSuffix(".csv") {
            return FirebaseExportFile(users: try FirebaseCSV.users(in: data))
        }
        do {
            return try JSONDecoder().decode(FirebaseExportFile.self, from: data)
        } catch {
            throw Unreadable(description: "not the JSON `firebase auth:export` writes (an object with a \"users\" list): \(error)")
        }
    }

    /// The users as an `accounts:batchCreate` request, with the hash configuration to check their hashes by.
    func uploadRequest(hashing hashConfig: FirebaseHashConfig?) -> UploadAccountRequest {
        var request = hashConfig?.request ?? UploadAccountRequest(users: nil)
        request.users = users.map(\.uploaded)
        return request
    }

    /// The JSON `firebase auth:import` reads: two-space indents, keys sorted, slashes as they are.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
