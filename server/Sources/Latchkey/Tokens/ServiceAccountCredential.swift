import Foundation
import LatchkeyDomain
import _CryptoExtras

/// A new service account for a backend that mints custom tokens: its key pair, the JSON file the Admin SDKs take as a
/// credential (Google's service-account key format: `firebase_admin.credentials.Certificate`, firebase-admin-node
/// `cert()`), and the `serviceAccounts` entry that lets Latchkey verify its tokens. Only the file holds the private key.
package struct ServiceAccountCredential: Sendable {
    package let email: String
    /// `private_key_id`: the `kid` the Admin SDKs put in the tokens they sign.
    package let keyID: String
    package let projectID: String
    let privateKeyPEM: String
    let publicKeyPEM: String

    /// A new RSA-2048 key pair for `name@PROJECT.latchkey.invalid`: an address under a reserved domain, so that it can
    /// be mistaken for no mailbox and no Google account. Generating the key takes a CPU-bound moment: for the command
    /// line, not a request.
    package init(name: String, projectID: String) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        email = "\(name)@\(projectID).latchkey.invalid"
        keyID = ServerSecret.randomBytes(20).map { String(format: "%02x", $0) }.joined()
        self.projectID = projectID
        privateKeyPEM = key.pemRepresentation
        publicKeyPEM = key.publicKey.pemRepresentation
    }

    /// Whether `name` makes a plain address: letters, digits and hyphens, as Google's account ids (6 to 30 there).
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
    }

    /// The credential file. The token URI is Google's, which the Admin SDKs require to be present; they call it only
    /// to reach Google's APIs, never to sign a custom token.
    package var file: Data {
        let fields: [String: String] = [
            "type": "service_account", "project_id": projectID, "private_key_id": keyID, "private_key": privateKeyPEM, "client_email": email,
            "client_id": "", "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
        ]
        return (try? JSONSerialization.data(withJSONObject: fields, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// The entry for the configuration's `serviceAccounts` list: the address and the public key under its id.
    package var configurationEntry: String {
        let entry: [String: Any] = ["email": email, "projectId": projectID, "keys": [["id": keyID, "pem": publicKeyPEM]]]
        let data = (try? JSONSerialization.data(withJSONObject: entry, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
