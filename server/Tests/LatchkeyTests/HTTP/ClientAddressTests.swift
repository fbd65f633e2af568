import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Who the client is: proxies' headers count only when the peer is a trusted proxy.
@Suite struct ClientAddressTests {
    @Test(arguments: [
        ("10.1.2.3", "10.0.0.0/8", true), ("11.0.0.1", "10.0.0.0/8", false), ("192.168.1.77", "192.168.1.64/26", true),
        ("192.168.1.128", "192.168.1.64/26", false), ("::1", "::1/128", true), ("2001:db8::9", "2001:db8::/32", true),
        ("::ffff:10.9.9.9", "10.0.0.0/8", true), ("10.1.2.3", "::/0", false), ("203.0.113.9", "203.0.113.9", true),
    ])
    func networksContainTheirAddresses(_ address: String, _ block: String, _ expected: Bool) throws {
        let network = try #require(IPNetwork(block))
        #expect(network.contains(try #require(IPAddress(address))) == expected)
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/", "nonsense", "1.2.3.4:80", "[::1]/128", "::1/129", ""])
    func malformedBlocksAreRefused(_ block: String) {
        #expect(IPNetwork(block) == nil)
    }

    @Test(arguments: [("[2001:db8::1]:4711", "2001:db8::1"), ("192.0.2.1:8080", "192.0.2.1"), (" \"192.0.2.2\" ", "192.0.2.2")])
    func proxyAddressFormsParse(_ text: String, _ expected: String) {
        #expect(IPAddress(text)?.description == expected)
    }

    @Test func theRightMostUntrustedHopIsTheClient() throws {
        let middleware = ClientAddressMiddleware(trustedProxies: [try #require(IPNetwork("10.0.0.0/8"))], header: .xForwardedFor)
        let peer = try #require(IPAddress("10.0.0.1"))
        func client(_ header: String) -> String {
            middleware.client(behind: peer, hops: middleware.hops(in: [ClientAddressMiddleware.xForwardedFor: header])).description
        }
        #expect(client("6.6.6.6, 203.0.113.7") == "203.0.113.7")
        #expect(client("6.6.6.6, 203.0.113.7, 10.2.2.2") == "203.0.113.7")
        #expect(client("10.3.3.3, 10.2.2.2") == "10.3.3.3")
        #expect(client("203.0.113.7, garbage") == "10.0.0.1")
        #expect(client("") == "10.0.0.1")
    }

    @Test func theForwardedHeaderIsReadWhenConfigured() throws {
        let middleware = ClientAddressMiddleware(trustedProxies: [try #require(IPNetwork("127.0.0.1"))], header: .forwarded)
        let hops = middleware.hops(in: [
            ClientAddressMiddleware.forwarded: #"for=192.0.2.60;proto=https, For="[2001:db8:cafe::17]:4711""#,
            ClientAddressMiddleware.xForwardedFor: "6.6.6.6",
        ])
        #expect(middleware.client(behind: try #require(IPAddress("127.0.0.1")), hops: hops).description == "2001:db8:cafe::17")
    }

    /// Through a real socket from 127.0.0.1: the request log names the client.
    @Test(arguments: [(["127.0.0.1/32"], "203.0.113.7"), ([], "127.0.0.1"), (["10.0.0.0/8"], "127.0.0.1")])
    func requestLogsNameTheClientTheRuleGives(_ trusted: [String], _ expected: String) async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        try await withApp(["server.trustedProxies": trusted], logger: logger, testing: .live) { client, _, _ in
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [ClientAddressMiddleware.xForwardedFor: "6.6.6.6, 203.0.113.7"])
            let requests = handler.entries.filter { $0.message.description == "Request" }
            #expect(requests.last?.metadata["ip"]?.description == expected)
        }
    }

    @Test func forwardedHostHeadersNeverChangeTheLink() async throws {
        try await withApp(["server.trustedProxies": ["127.0.0.1/32"]], testing: .live) { client, _, mailbox in
            try await client.sendLink(headers: [HTTPField.Name("X-Forwarded-Host")!: "evil.example", HTTPField.Name("X-Forwarded-Proto")!: "http"])
            let link = try Mailbox.link(in: try await mailbox.waitForMessages(1)[0])
            #expect(link.scheme == "https" && link.host == "auth.example.com")
        }
    }

    @Test(arguments: [
        ("2001:db8:1:2:3:4:5:6", 64, "2001:db8:1:2::/64"), ("2001:db8:1:2:3:4:5:6", 48, "2001:db8:1::/48"),
        ("2001:db8:1:2:3:4:5:6", 60, "2001:db8:1::/60"), ("2001:db8:1:2:3:4:5:6", 128, "2001:db8:1:2:3:4:5:6/128"),
        ("192.0.2.77", 24, "192.0.2.0/24"),
    ])
    func aNetworkIsMaskedToItsPrefix(_ address: String, _ length: Int, _ expected: String) throws {
        #expect(IPNetwork(try #require(IPAddress(address)), prefixLength: length).description == expected)
    }
}
