import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// A password hash imported from Firebase opens the account at the first sign-in, which replaces it with this
/// server's own hash in the same transaction: the imported hash is used at most once.
@Suite struct ImportedPasswordSignInTests {
    @Test func theFirstSignInReplacesTheImportedHash() async throws {
        try await withApp { client, workspace, _ in
            #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"ida@example.com","password":"placeholder"}"#).status == .ok)
            let configuration = try await workspace.configuration()
            let opened = try await makeStore(configuration, logger: Logger(label: "test"))
            let store = opened.store
            let hasher = PasswordHasher(cost: 4, secret: try ServerSecret.load(configuration.security, creatingIfMissing: false))
            let imported = try hasher.stored(try ImportedPasswordHash.firebaseExample())
            let email = try #require(EmailAddress("ida@example.com"))
            try await store.write { transaction in
                guard var account = try await transaction.account(email: email) else { return }
                account.passwordHash = imported
                try await transaction.update(account)
            }
            func storedHash() async throws -> String? { try await store.read { try await $0.account(email: email)?.passwordHash } }

            let wrong = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ida@example.com","password":"placeholder"}"#)
            let afterWrong = try await storedHash()
            #expect(wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS" && afterWrong == imported)

            let right = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ida@example.com","password":"user1password"}"#)
            #expect(right.status == .ok)
            let replaced = try #require(try await storedHash())
            #expect(replaced != imported && replaced.hasPrefix("$2b$04$") && !hasher.needsRehash(replaced, password: "user1password"))
            #expect(try await hasher.verify("user1password", against: replaced))
            let again = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ida@example.com","password":"user1password"}"#)
            let afterAgain = try await storedHash()
            #expect(again.status == .ok && afterAgain == replaced)

            // Sealed under another server secret (a store copied without its secret): it opens nothing, cleanly.
            let foreign = try PasswordHasher(cost: 4, secret: ServerSecret(material: Data(repeating: 9, count: 32))).stored(try ImportedPasswordHash.firebaseExample())
            try await store.write { transaction in
                guard var account = try await transaction.account(email: email) else { return }
                account.passwordHash = foreign
                try await transaction.update(account)
            }
            let refused = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ida@example.com","password":"user1password"}"#)
            let afterRefusal = try await storedHash()
            #expect(refused.errorMessage == "INVALID_LOGIN_CREDENTIALS" && afterRefusal == foreign)
            withExtendedLifetime(opened) {}
        }
    }
}
