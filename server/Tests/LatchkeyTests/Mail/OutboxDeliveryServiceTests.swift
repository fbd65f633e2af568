import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

@Suite struct OutboxDeliveryServiceTests {
    let secret = ServerSecret(material: Data(repeating: 1, count: 32))
    let alice = EmailAddress("alice@example.com")!

    static let legacyMIME = "Subject: hi\r\n\r\nbody"

    /// A store with `count` sealed messages queued (finished MIME, as older versions queued it, unless `letter` is
    /// given), and a service over `transport`.
    func makeService(
        _ workspace: TestWorkspace, transport: RecordingMailTransport, clock: FixedClock, count: Int = 1, letter: SignInLetter? = nil
    ) async throws -> (OutboxDeliveryService, SQLiteStore) {
        let store = try SQLiteStore(path: workspace.databasePath)
        let message = try OutboxMessage(
            recipient: .email(alice), format: letter == nil ? .mime : .signInLetter,
            sealedContent: secret.seal(letter?.encoded() ?? Array(Self.legacyMIME.utf8)), createdAt: clock.now)
        try await store.write { tx in
            for _ in 0..<count { try await tx.enqueue(message) }
        }
        var policy = DeliveryPolicy()
        policy.maximumAttempts = 3
        let renderer = try await EmailRenderer(
            templates: TestTemplates.library(),
            sender: MailAddress(address: "no-reply@example.com"), appName: "Example")
        let service = OutboxDeliveryService(
            store: store, secret: secret, renderer: renderer, transport: transport, texts: try await TextDelivery.recording(), clock: clock, signal: OutboxSignal(), policy: policy,
            logger: Logger(label: "test"))
        return (service, store)
    }

    @Test func aLetterIsRenderedAtDeliveryAsItWasQueued() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let link = try ActionLink(
                publicURL: #require(URL(string: "https://auth.example.com")), code: "CODE123", apiKey: "key",
                settings: ActionCodeSettings(continueURL: "https://app.example.com/", authorizedDomains: ["app.example.com"]), language: .english)
            let requestedAt = Date(timeIntervalSince1970: 1_800_000_000)
            let letter = try SignInLetter(
                link: link, language: #require(LanguageTag("de")), expiresInMinutes: 15, requestedAt: requestedAt,
                requester: RequesterSummary(ipAddress: "198.51.100.7"))
            let (service, _) = try await makeService(workspace, transport: transport, clock: clock, letter: letter)
            clock.advance(by: 3600)  // delivered an hour late: the mail still states the request's time
            await service.deliverDueMessages()
            let mime = try #require(transport.messages.first)
            #expect(mime.contains("To: alice@example.com\r\n") && mime.contains("Date: Fri, 15 Jan 2027 08:00:00 +0000\r\n"))
            #expect(mime.contains("Content-Language: de") || mime.contains("lang=3D\"de\""))
            #expect(mime.contains("CODE123") && mime.contains("198.51.100.7") && mime.contains("in 15 Minuten"))
            // The Message-ID was fixed when the letter was queued, so a second delivery is recognizably the same mail.
            #expect(mime.contains("Message-ID: <\(letter.messageToken)@example.com>\r\n"))
        }
    }

    @Test func aLetterThatDoesNotDecodeIsGivenUpAtOnce() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock)
            try await store.write { transaction in
                try await transaction.enqueue(
                    OutboxMessage(
                        recipient: .email(self.alice), format: .signInLetter, sealedContent: self.secret.seal(Array("not a letter".utf8)), createdAt: clock.now))
            }
            await service.deliverDueMessages()
            #expect(transport.messages == [Self.legacyMIME])
            let failed = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(failed.isFailed && failed.attempts == 1 && failed.lastError == "unreadableLetter")
        }
    }

    @Test func mimeQueuedByAnOlderVersionIsDeliveredAsIs() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, _) = try await makeService(workspace, transport: transport, clock: clock)
            await service.deliverDueMessages()
            #expect(transport.messages == [Self.legacyMIME])
        }
    }

    @Test func deliversEveryDueMessageOnce() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock, count: 25)
            await service.deliverDueMessages()
            await service.deliverDueMessages()
            #expect(transport.delivered.sorted() == Array(1...25))
            #expect(try await store.read { try await $0.undeliveredMessages(limit: 100) }.isEmpty)
        }
    }

    @Test func temporaryFailuresAreRetriedAfterABackoff() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock)
            transport.fail(next: 1)
            await service.deliverDueMessages()
            let waiting = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(!waiting.isFailed && waiting.lastError == "451 try again later")
            #expect(waiting.nextAttemptAt > clock.now && waiting.nextAttemptAt <= clock.now.addingTimeInterval(5))

            await service.deliverDueMessages()
            #expect(transport.delivered.isEmpty)
            clock.advance(by: 5)
            await service.deliverDueMessages()
            #expect(transport.delivered == [1])
        }
    }

    @Test func permanentFailuresAreGivenUpAtOnceWithTheReason() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock)
            transport.fail(next: 1, permanently: true)
            await service.deliverDueMessages()
            let failed = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(failed.isFailed && failed.attempts == 1 && failed.lastError == "550 mailbox unavailable")

            let now = clock.now
            let retried = try await store.write { try await $0.retryFailedMessages(now: now) }
            #expect(retried == 1)
            await service.deliverDueMessages()
            #expect(transport.delivered == [1])
        }
    }

    /// A delivery the store could not record is not a failed delivery: the message keeps its lease, counts no failure,
    /// and goes out again once the lease ends (at least once, never zero times).
    @Test func aDeliveryThatCannotBeRecordedIsNotAFailure() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock)
            let database = try workspace.openDatabase()
            try await database.write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER refuse_sent BEFORE UPDATE OF status ON outbox WHEN NEW.status = 'sent'
                        BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END
                        """)
            }
            await service.deliverDueMessages()
            #expect(transport.delivered == [1])
            let leased = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(!leased.isFailed && leased.attempts == 1 && leased.lastError == nil && leased.nextAttemptAt == clock.now)

            try await database.write { try $0.execute(sql: "DROP TRIGGER refuse_sent") }
            await service.deliverDueMessages()
            #expect(transport.delivered == [1])  // still leased
            clock.advance(by: DeliveryPolicy().lease)
            await service.deliverDueMessages()
            #expect(transport.delivered == [1, 1])
            #expect(try await store.read { try await $0.undeliveredMessages(limit: 10) }.isEmpty)
        }
    }

    @Test func messagesAreGivenUpAfterTheLastAttempt() async throws {
        try await withWorkspace { workspace in
            let (transport, clock) = (RecordingMailTransport(), FixedClock())
            let (service, store) = try await makeService(workspace, transport: transport, clock: clock)
            transport.fail(next: 10)
            for _ in 0..<5 {
                await service.deliverDueMessages()
                clock.advance(by: 700)
            }
            let failed = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(failed.isFailed && failed.attempts == 3)
        }
    }

    @Test func backoffDoublesUpToTheCapWithJitter() {
        var policy = DeliveryPolicy()
        policy.maximumAttempts = 20
        let failure = RecordingMailTransport.Failure(isPermanent: false)
        for (attempt, base) in [(1, 5.0), (2, 10.0), (3, 20.0), (8, 600.0), (12, 600.0)] {
            let delay = policy.retryDelay(afterAttempt: attempt, error: failure)
            #expect(delay.map { $0 >= base / 2 && $0 <= base } == true, "attempt \(attempt): \(String(describing: delay))")
        }
    }
}

@Suite struct StoreOnlyInstanceTests {
    @Test func zeroWorkersStoreMailWithoutDeliveringIt() async throws {
        try await withApp(["mail.workers": 0]) { client, workspace, _ in
            try await client.sendLink()
            try await Task.sleep(for: .seconds(1.5))
            let files = (try? FileManager.default.contentsOfDirectory(atPath: workspace.outboxDirectory.path)) ?? []
            #expect(files.filter { $0.hasSuffix(".eml") }.isEmpty)
            let pending = try await workspace.openDatabase().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND attempts = 0")
            }
            #expect(pending == 1)
        }
    }
}
