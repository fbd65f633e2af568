import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Two instances on one PostgreSQL whose host clocks disagree by an hour: claims, leases and retries are judged by the
/// database's clock, so neither takes over the other's live lease nor waits an hour for a message to fall due.
@Suite(.needsPostgres, .outsideProcesses) struct OutboxClockSkewTests {
    let secret = ServerSecret(material: Data(repeating: 1, count: 32))

    /// An instance on its own connection pool to the shared database, delivering through `transport` by `clock`.
    func instance(_ configuration: AppConfiguration, transport: any MailTransport, clock: FixedClock) async throws -> (OutboxDeliveryService, OpenedStore) {
        let opened = try await makeStore(configuration, logger: Logger(label: "test"))
        var policy = DeliveryPolicy()
        // A retry falls due within the test, by whichever clock judges it, yet not so soon that the failing instance's
        // own next claim round, slowed by a loaded machine, finds it due again.
        policy.firstDelay = 6
        let renderer = try await EmailRenderer(
            templates: TestTemplates.library(),
            sender: MailAddress(address: "no-reply@example.com"), appName: "Example")
        let service = OutboxDeliveryService(
            store: opened.store, secret: secret, renderer: renderer, transport: transport, texts: try await TextDelivery.recording(), clock: clock, signal: OutboxSignal(), policy: policy,
            logger: Logger(label: "test"))
        return (service, opened)
    }

    func enqueue(_ store: any Store, queuedAt date: Date) async throws {
        let message = try OutboxMessage(
            recipient: .email(Fixture.alice), format: .mime, sealedContent: secret.seal(Array("Subject: hi\r\n\r\nbody".utf8)), createdAt: date)
        try await store.write { try await $0.enqueue(message) }
    }

    @Test func anInstanceWhoseClockRunsAheadTakesOverNoLiveLease() async throws {
        try await withWorkspace { workspace in
            let configuration = try await StoreKind.postgres.configuration(in: workspace)
            let (gated, recording) = (GatedMailTransport(), RecordingMailTransport())
            // A few seconds ahead of the database, so that it would claim the message by its own clock as well.
            let (behind, first) = try await instance(configuration, transport: gated, clock: FixedClock(Date().addingTimeInterval(5)))
            let (ahead, second) = try await instance(configuration, transport: recording, clock: FixedClock(Date().addingTimeInterval(3600)))
            defer { withExtendedLifetime((first, second)) {} }
            // Queued by the instance an hour ahead, yet due at once for the one behind.
            try await enqueue(second.store, queuedAt: Date().addingTimeInterval(3600))

            async let delivering: Void = behind.deliverDueMessages()
            await gated.sendStarted()  // the message is leased to `behind`, by the database's clock, for a minute
            await ahead.deliverDueMessages()
            #expect(recording.delivered.isEmpty)
            gated.open()
            await delivering
            await ahead.deliverDueMessages()
            #expect(gated.recording.delivered.count == 1 && recording.delivered.isEmpty)
            #expect(try await first.store.read { try await $0.undeliveredMessages(limit: 10) }.isEmpty)
        }
    }

    @Test func aRetryScheduledByAnInstanceAheadFallsDueForOneBehind() async throws {
        try await withWorkspace { workspace in
            let configuration = try await StoreKind.postgres.configuration(in: workspace)
            let (failing, recording) = (RecordingMailTransport(), RecordingMailTransport())
            failing.fail(next: 1)
            let (ahead, first) = try await instance(configuration, transport: failing, clock: FixedClock(Date().addingTimeInterval(3600)))
            let (behind, second) = try await instance(configuration, transport: recording, clock: FixedClock(Date()))
            defer { withExtendedLifetime((first, second)) {} }
            try await enqueue(first.store, queuedAt: Date())

            await ahead.deliverDueMessages()
            #expect(failing.delivered.isEmpty)
            try await Task.sleep(for: .milliseconds(6_500))
            await behind.deliverDueMessages()
            #expect(recording.delivered.count == 1 && failing.delivered.isEmpty)
        }
    }
}

/// A transport whose sends wait until the test opens it, so that a lease stays held while another instance looks.
private final class GatedMailTransport: MailTransport {
    let recording = RecordingMailTransport()
    private let started = AsyncStream.makeStream(of: Void.self)
    private let gate = AsyncStream.makeStream(of: Void.self)

    /// Returns once a send has begun and is waiting at the gate.
    func sendStarted() async {
        for await _ in started.stream { return }
    }

    /// Lets every waiting and later send through.
    func open() {
        gate.continuation.finish()
    }

    func deliver(_ message: [UInt8], to recipient: EmailAddress, id: Int64) async throws {
        started.continuation.yield()
        for await _ in gate.stream {}
        try await recording.deliver(message, to: recipient, id: id)
    }
}
