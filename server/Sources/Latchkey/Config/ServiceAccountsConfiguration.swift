import Foundation
import LatchkeyDomain

/// The service accounts whose custom tokens sign users in (`serviceAccounts`, a list of objects):
///
/// - `email` (string, required): the account's address, which its tokens give as `iss` and `sub`.
/// - `projectId` (string): the account's project. By default the one a Google address
///   (`…@PROJECT.iam.gserviceaccount.com`) names, else this server's; a token of another project's account is refused
///   with `CREDENTIAL_MISMATCH`, as Firebase refuses it.
/// - `keys` (list of `{"id", "pem"}`): the account's public keys: an RSA public key or an X.509 certificate in PEM, under
///   the `kid` its tokens name (`private_key_id` in its JSON file), as `latchkey service-account create` prints them.
/// - `keysURL` (https URL, or http on a loopback host): where the account's keys are published, a JWKS or Google's x509
///   metadata (`https://www.googleapis.com/robot/v1/metadata/x509/EMAIL`), fetched when first needed and kept as long
///   as its `Cache-Control` says, like an identity provider's.
///
/// Each account needs `keys`, `keysURL` or both. No account configured: custom tokens sign nobody in (in development
/// mode the Admin SDKs' unsigned emulator tokens still do).
package struct ServiceAccountsConfiguration: Sendable {
    package struct ServiceAccount: Sendable {
        package var email: String
        package var projectID: String
        package var keys: [(id: String, pem: String)]
        package var keysURL: URL?
    }

    package var accounts: [ServiceAccount]

    init(_ read: inout ConfigSectionReader, projectID: String) {
        accounts = read.objectList("serviceAccounts", fields: ["email", "projectId", "keys", "keysURL"]).compactMap {
            Self.account(&read, $0, defaultProject: projectID)
        }
        let emails = accounts.map { $0.email.lowercased() }
        if Set(emails).count != emails.count { read.problems.add("serviceAccounts", "lists the same email twice") }
    }

    private static func account(_ read: inout ConfigSectionReader, _ prefix: String, defaultProject: String) -> ServiceAccount? {
        let email = read.string("\(prefix).email") ?? ""
        var isValid = true
        if EmailAddress(email) == nil {
            read.problems.add("\(prefix).email", "must be the service account's email address")
            isValid = false
        }
        let projectID = read.string("\(prefix).projectId") ?? googleProject(of: email) ?? defaultProject
        var keys: [(id: String, pem: String)] = []
        for key in read.objectList("\(prefix).keys", fields: ["id", "pem"]) {
            let id = read.string("\(key).id") ?? ""
            let pem = read.string("\(key).pem") ?? ""
            if id.isEmpty { read.problems.add("\(key).id", "must be the key id its tokens name (private_key_id)") }
            if ProviderKeySet.rsaKey(pem: pem) == nil {
                read.problems.add("\(key).pem", "must be an RSA public key (2048 bits or more) or an X.509 certificate of one, in PEM")
            }
            keys.append((id, pem))
        }
        if Set(keys.map(\.id)).count != keys.count { read.problems.add("\(prefix).keys", "lists the same id twice") }
        let urlText = read.string("\(prefix).keysURL")
        let keysURL = urlText.flatMap(keysURL(from:))
        if urlText != nil, keysURL == nil {
            read.problems.add("\(prefix).keysURL", "must be an https URL (http only on a loopback host)")
            isValid = false
        }
        if keys.isEmpty, urlText == nil {
            read.problems.add(prefix, "needs keys or keysURL")
            isValid = false
        }
        return isValid ? ServiceAccount(email: email, projectID: projectID, keys: keys, keysURL: keysURL) : nil
    }

    /// The project of a Google service account's address: `NAME@PROJECT.iam.gserviceaccount.com`.
    static func googleProject(of email: String) -> String? {
        let suffix = ".iam.gserviceaccount.com"
        guard let at = email.lastIndex(of: "@"), email.lowercased().hasSuffix(suffix) else { return nil }
        let project = email[email.index(after: at)...].dropLast(suffix.count)
        return project.isEmpty ? nil : String(project)
    }

    private static func keysURL(from text: String) -> URL? {
        guard let components = URLComponents(string: text), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        let isLoopback = ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)
        guard components.scheme == "https" || (components.scheme == "http" && isLoopback) else { return nil }
        return components.url
    }
}
