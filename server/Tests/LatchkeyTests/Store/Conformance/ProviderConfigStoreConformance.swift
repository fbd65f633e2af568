import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct ProviderConfigStoreConformance {
    static func config(_ id: String, kind: ProviderConfig.Kind = .oidc) -> ProviderConfig {
        ProviderConfig(
            providerID: id, kind: kind, displayName: "Name of \(id)", isEnabled: true, issuer: kind == .oidc ? "https://sso.example.com" : nil,
            clientID: "client-\(id)", sealedClientSecret: Data([1, 2, 3]), responseType: .code, createdAt: Fixture.now)
    }

    /// An id is taken once; providers are listed by kind in id order, a page after another; changes and removals stick.
    @Test(arguments: StoreKind.all) func providersAreKeptByIdAndListedInOrder(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let inserted = try await store.write { tx in
                [
                    try await tx.insert(Self.config("oidc.c")), try await tx.insert(Self.config("oidc.a")), try await tx.insert(Self.config("oidc.b")),
                    try await tx.insert(Self.config("yahoo.com", kind: .builtIn)), try await tx.insert(Self.config("oidc.a")),
                ]
            }
            #expect(inserted == [true, true, true, true, false])
            #expect(try await store.read { try await $0.providerConfig(id: "oidc.a") } == Self.config("oidc.a"))
            let first = try await store.read { try await $0.providerConfigs(.oidc, after: nil, limit: 2) }
            #expect(first.map(\.providerID) == ["oidc.a", "oidc.b"])
            #expect(try await store.read { try await $0.providerConfigs(.oidc, after: "oidc.b", limit: 2) }.map(\.providerID) == ["oidc.c"])
            #expect(try await store.read { try await $0.providerConfigs(.builtIn, after: nil, limit: 10) } == [Self.config("yahoo.com", kind: .builtIn)])
            // Byte order whatever the database's collation, which could put `oidc.a-c` after `oidc.ab` and skip one.
            _ = try await store.write { try await $0.insert(Self.config("oidc.a-c")) }
            var paged: [String] = []
            while let next = try await store.read({ [after = paged.last] in try await $0.providerConfigs(.oidc, after: after, limit: 1) }).first {
                paged.append(next.providerID)
            }
            #expect(paged == ["oidc.a", "oidc.a-c", "oidc.b", "oidc.c"])
            _ = try await store.write { try await $0.deleteProviderConfig(id: "oidc.a-c") }

            var changed = Self.config("oidc.b")
            (changed.isEnabled, changed.displayName, changed.sealedClientSecret, changed.responseType) = (false, nil, nil, .idToken)
            let update = changed
            try await store.write { try await $0.update(update) }
            #expect(try await store.read { try await $0.providerConfig(id: "oidc.b") } == changed)
            #expect(try await store.write { try await $0.deleteProviderConfig(id: "oidc.b") })
            #expect(try await store.write { try await $0.deleteProviderConfig(id: "oidc.b") } == false)
            #expect(try await store.read { try await $0.providerConfig(id: "oidc.b") } == nil)
        }
    }
}
