import Foundation
import InMemoryLogging
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Texts go through the durable outbox as mail does, on both stores: queued sealed in the caller's transaction (the
/// phone flows' one call), rendered at delivery, retried with the outbox's backoff, given up when the gateway refuses
/// them for good, and counted.
@Suite(.outsideProcesses) struct OutboxTextDeliveryTests {
    let secret = ServerSecret(material: Data(repeating: 3, count: 32))
    let number = PhoneNumber("+1 415 555 0100")!
    /// SQLite's claims are judged by this clock, PostgreSQL's by the database's: a retry falls due on both once the
    /// test has slept past it and moved this clock on.
    let clock = FixedClock()

    /// A service over `store` with a recording gateway and mail transport, retrying after one to two seconds (longer than a
    /// loaded machine's claim round, so a retry is not due again within the round that failed).
    func makeService(
        _ store: any Store, gateway: RecordingTextGateway, transport: RecordingMailTransport = RecordingMailTransport(),
        metrics: SignInMetrics = SignInMetrics(), logger: Logger = Logger(label: "test")
    ) async throws -> OutboxDeliveryService {
        var policy = DeliveryPolicy()
        (policy.firstDelay, policy.maximumDelay, policy.maximumAttempts) = (2, 2, 3)
        let renderer = try await EmailRenderer(
            templates: TestTemplates.library(), sender: MailAddress(address: "no-reply@example.com"), appName: "Example")
        return OutboxDeliveryService(
            store: store, secret: secret, renderer: renderer, transport: transport, texts: try await .recording(gateway), clock: clock,
            signal: OutboxSignal(), policy: policy, logger: logger, metrics: metrics)
    }

    /// Queues `text` the way the phone flows do: one call inside the store transaction.
    func queue(_ text: VerificationText, in store: any Store) async throws {
        let (secret, number) = (secret, number)
        try await store.write { transaction in
            try await transaction.enqueue(try text.queued(to: number, secret: secret, at: Date()))
        }
    }

    @Test(arguments: StoreKind.all) func aQueuedTextIsDeliveredOnceInItsLanguageWithTheWebOTPLineLast(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let gateway = RecordingTextGateway()
            let service = try await makeService(store, gateway: gateway)
            try await queue(VerificationText(code: "428913", purpose: .signIn, language: #require(LanguageTag("de-AT"))), in: store)
            let sealed = try #require(try await store.write { try await $0.claimOutboxMessages(now: Date(), leaseUntil: Date(), limit: 1) }.first)
            #expect(!String(decoding: sealed.message.sealedContent, as: UTF8.self).contains("428913"), "the code is sealed at rest")
            await service.deliverDueMessages()
            await service.deliverDueMessages()
            let text = try #require(gateway.texts.first)
            #expect(gateway.texts.count == 1 && text.to == number && text.id == sealed.claim.messageID)
            #expect(text.body.contains("428913 ist Ihr Anmeldecode für Example"))
            #expect(text.body.split(separator: "\n").last == "@auth.example.com #428913")
            #expect(try await store.read { try await $0.undeliveredMessages(limit: 10) }.isEmpty)
        }
    }

    @Test(arguments: StoreKind.all) func aTextTheGatewayCannotTakeNowIsRetriedThenDelivered(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (gateway, metrics) = (RecordingTextGateway(), ServiceMetrics())
            let service = try await makeService(store, gateway: gateway, metrics: metrics.counters)
            gateway.fail(next: 1)
            try await queue(VerificationText(code: "111222", purpose: .challenge, language: .english), in: store)
            await service.deliverDueMessages()
            let waiting = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(!waiting.isFailed && waiting.attempts == 1 && waiting.lastError == "recording unavailable: HTTP 503")
            #expect(waiting.recipient == .phone(number) && waiting.recipient.redacted == "+1********00")
            try await Task.sleep(for: .milliseconds(2_100))
            clock.advance(by: 3)
            await service.deliverDueMessages()
            #expect(gateway.texts.map(\.body.isEmpty) == [false])
            let exposition = String(decoding: metrics.exposition(backlog: OutboxBacklog(count: 0, oldestAge: 0)), as: UTF8.self)
            #expect(
                exposition.contains(#"latchkey_texts_total{outcome="retried"} 1"#) && exposition.contains(#"latchkey_texts_total{outcome="sent"} 1"#))
        }
    }

    @Test(arguments: StoreKind.all) func aTextRefusedForGoodIsGivenUpAtOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let gateway = RecordingTextGateway()
            let service = try await makeService(store, gateway: gateway)
            gateway.fail(next: 1, permanently: true)
            try await queue(VerificationText(code: "333444", purpose: .enrollment, language: .english), in: store)
            await service.deliverDueMessages()
            try await Task.sleep(for: .milliseconds(2_100))
            clock.advance(by: 3)
            await service.deliverDueMessages()
            let failed = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(failed.isFailed && failed.attempts == 1 && failed.lastError == "recording refused the text: HTTP 400 (error 21211)")
            #expect(gateway.texts.isEmpty)
        }
    }

    @Test(arguments: StoreKind.all) func mailAndTextsLeaveThroughTheirOwnChannelsFromOneOutbox(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (gateway, transport) = (RecordingTextGateway(), RecordingMailTransport())
            let service = try await makeService(store, gateway: gateway, transport: transport)
            let alice = try #require(EmailAddress("alice@example.com"))
            let mail = try OutboxMessage(
                recipient: .email(alice), format: .mime, sealedContent: secret.seal(Array("Subject: hi\r\n\r\nbody".utf8)), createdAt: Date())
            try await store.write { try await $0.enqueue(mail) }
            try await queue(VerificationText(code: "555666", purpose: .signIn, language: .english), in: store)
            await service.deliverDueMessages()
            #expect(transport.messages == ["Subject: hi\r\n\r\nbody"])
            #expect(gateway.texts.map(\.to) == [number])
        }
    }

    /// What delivery logs of a text, retried then given up or sent, is the redacted number: never the number, the
    /// code or the body.
    @Test func logsShowOnlyTheRedactedNumber() async throws {
        try await withStore(.sqlite) { store in
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "test") { _ in handler }
            logger.logLevel = .trace
            let gateway = RecordingTextGateway()
            let service = try await makeService(store, gateway: gateway, logger: logger)
            gateway.fail(next: 1)
            try await queue(VerificationText(code: "987654", purpose: .signIn, language: .english), in: store)
            await service.deliverDueMessages()
            clock.advance(by: 3)
            await service.deliverDueMessages()
            #expect(gateway.texts.count == 1)
            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.contains { $0.contains("Text delivery failed; will retry") && $0.contains("+1********00") })
            #expect(lines.contains { $0.contains("Text delivered") })
            #expect(!lines.contains { $0.contains("4155550100") || $0.contains("987654") }, "\(lines)")
        }
    }
}
