import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// Sends real mail through libcurl to `smtp_sink.py` (aiosmtpd) on 127.0.0.1.
@Suite("CurlSMTPTransport", .outsideProcesses)
struct CurlSMTPTransportTests {
    static let alice = EmailAddress("alice@example.com")!
    static let bob = EmailAddress("bob@example.org")!

    /// A small MIME message; the line starting with a dot checks that curl's dot-stuffing round-trips.
    static func message(_ number: Int = 1) -> [UInt8] {
        Array("From: no-reply@example.com\r\nTo: alice@example.com\r\nSubject: Test \(number)\r\n\r\nBody \(number)\r\n.leading dot\r\n".utf8)
    }

    @Test func deliversInClearTextToLocalhost() async throws {
        try await withSMTPSink { sink in
            try await withTransport(sink.settings()) { transport in
                try await transport.deliver(Self.message(), to: Self.alice, id: 1)
            }
            let received = try sink.messages()
            #expect(received.count == 1)
            #expect(received.first?.recipients == ["alice@example.com"])
            #expect(received.first?.mailFrom == "no-reply@example.com")
            #expect(received.first?.usedTLS == false)
            #expect(received.first?.content.contains("Subject: Test 1\r\n") == true)
            #expect(received.first?.content.contains("\r\n.leading dot") == true)
        }
    }

    @Test func deliversOverSTARTTLSWithAPrivateCA() async throws {
        try await withTemporaryDirectory { directory in
            let certificate = try await TestCertificate.make(in: directory)
            try await withSMTPSink(.init(certificate: certificate, requireSTARTTLS: true)) { sink in
                var settings = sink.settings(tls: .starttls)
                settings.caFile = certificate.certificatePath
                try await withTransport(settings) { transport in
                    try await transport.deliver(Self.message(), to: Self.alice, id: 1)
                }
                #expect(try sink.messages().map(\.usedTLS) == [true])
            }
        }
    }

    @Test func deliversOverImplicitTLS() async throws {
        try await withTemporaryDirectory { directory in
            let certificate = try await TestCertificate.make(in: directory)
            try await withSMTPSink(.init(certificate: certificate, implicitTLS: true)) { sink in
                var settings = sink.settings(tls: .implicit)
                settings.caFile = certificate.certificatePath
                try await withTransport(settings) { transport in
                    try await transport.deliver(Self.message(), to: Self.alice, id: 1)
                }
                #expect(try sink.messages().map(\.usedTLS) == [true])
            }
        }
    }

    @Test func refusesACertificateItDoesNotTrust() async throws {
        try await withTemporaryDirectory { directory in
            let certificate = try await TestCertificate.make(in: directory)
            try await withSMTPSink(.init(certificate: certificate, requireSTARTTLS: true)) { sink in
                let error = try await deliveryError(sink.settings(tls: .starttls))
                #expect(error.kind == .tlsFailed)
                #expect(!error.isPermanent)
                #expect(try sink.messages().isEmpty)
            }
        }
    }

    @Test func failsRatherThanSendInClearWhenTheServerOffersNoSTARTTLS() async throws {
        try await withSMTPSink { sink in
            let error = try await deliveryError(sink.settings(tls: .starttls))
            #expect(error.kind == .tlsFailed)
            #expect(!error.isPermanent)
            #expect(try sink.messages().isEmpty)
        }
    }

    @Test func authenticatesOverSTARTTLS() async throws {
        try await withTemporaryDirectory { directory in
            let certificate = try await TestCertificate.make(in: directory)
            try await withSMTPSink(.init(certificate: certificate, credentials: ("latchkey", "s3cret"))) { sink in
                var settings = sink.settings(tls: .starttls)
                settings.caFile = certificate.certificatePath
                settings.username = "latchkey"
                settings.password = "s3cret"
                try await withTransport(settings) { transport in
                    try await transport.deliver(Self.message(), to: Self.alice, id: 1)
                }
                #expect(try sink.messages().map(\.authenticatedUser) == ["latchkey"])
            }
        }
    }

    @Test func aWrongPasswordIsAPermanentAuthenticationFailure() async throws {
        try await withTemporaryDirectory { directory in
            let certificate = try await TestCertificate.make(in: directory)
            try await withSMTPSink(.init(certificate: certificate, credentials: ("latchkey", "s3cret"))) { sink in
                var settings = sink.settings(tls: .starttls)
                settings.caFile = certificate.certificatePath
                settings.username = "latchkey"
                settings.password = "wrong"
                let error = try await deliveryError(settings)
                #expect(error.kind == .authenticationFailed)
                #expect(error.smtpCode == 535)
                #expect(error.isPermanent)
                #expect(!error.description.contains("wrong"))
            }
        }
    }

    @Test func aServerThatIsDownIsATemporaryConnectionRefusal() async throws {
        let port = try await withSMTPSink { $0.port }
        let settings = SMTPSettings(url: "smtp://127.0.0.1:\(port)", tls: .none, envelopeFrom: "no-reply@example.com")
        let error = try await deliveryError(settings)
        #expect(error.kind == .connectionRefused)
        #expect(!error.isPermanent)
        #expect(error.description.hasPrefix("connection refused"))
    }

    @Test func aSilentServerTimesOut() async throws {
        try await withSMTPSink(.init(isSilent: true)) { sink in
            let started = ContinuousClock.now
            let error = try await deliveryError(sink.settings(timeoutSeconds: 1))
            #expect(error.kind == .timeout)
            #expect(!error.isPermanent)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test func a451IsTemporaryAndTheNextMessageGoesThrough() async throws {
        try await withSMTPSink(.init(failFirst: 1)) { sink in
            try await withTransport(sink.settings()) { transport in
                let error = try await #require(throws: MailDeliveryError.self) {
                    try await transport.deliver(Self.message(1), to: Self.alice, id: 1)
                }
                #expect(error.kind == .rejected)
                #expect(error.smtpCode == 451)
                #expect(!error.isPermanent)
                try await transport.deliver(Self.message(2), to: Self.alice, id: 2)
            }
            #expect(try sink.messages().count == 1)
        }
    }

    @Test func a550IsPermanentAndDoesNotNameTheRecipient() async throws {
        try await withSMTPSink(.init(rejectedRecipient: Self.bob.value)) { sink in
            try await withTransport(sink.settings()) { transport in
                let error = try await #require(throws: MailDeliveryError.self) {
                    try await transport.deliver(Self.message(1), to: Self.bob, id: 1)
                }
                #expect(error.kind == .rejected)
                #expect(error.smtpCode == 550)
                #expect(error.isPermanent)
                #expect(error.description.hasPrefix("550 mailbox unavailable"))
                #expect(!error.description.contains("bob"))
                try await transport.deliver(Self.message(2), to: Self.alice, id: 2)
            }
            #expect(try sink.messages().map(\.recipients) == [["alice@example.com"]])
        }
    }

    @Test func oneWorkerSendsTwentyMessagesOverOneConnection() async throws {
        try await withSMTPSink { sink in
            try await withTransport(sink.settings(workers: 1)) { transport in
                for number in 1...20 {
                    try await transport.deliver(Self.message(number), to: Self.alice, id: Int64(number))
                }
            }
            #expect(try sink.messages().count == 20)
            #expect(try sink.connectionCount() == 1)
            // Shutting the transport down freed the handle, which closed the connection.
            try await waitUntil { try sink.disconnectionCount() == 1 }
        }
    }

    @Test func fourWorkersDeliverFiftyParallelMessages() async throws {
        try await withSMTPSink { sink in
            try await withTransport(sink.settings(workers: 4)) { transport in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for number in 1...50 {
                        group.addTask { try await transport.deliver(Self.message(number), to: Self.alice, id: Int64(number)) }
                    }
                    try await group.waitForAll()
                }
            }
            let subjects = Set(try sink.messages().compactMap { $0.content.split(separator: "\r\n").first { $0.hasPrefix("Subject:") } })
            #expect(subjects.count == 50)
            #expect(try sink.connectionCount() <= 4)
        }
    }

    @Test func reconnectsAfterTheServerDroppedAnIdleConnection() async throws {
        try await withSMTPSink(.init(idleTimeoutSeconds: 0.5)) { sink in
            try await withTransport(sink.settings(workers: 1)) { transport in
                try await transport.deliver(Self.message(1), to: Self.alice, id: 1)
                try await waitUntil { try sink.disconnectionCount() == 1 }
                try await transport.deliver(Self.message(2), to: Self.alice, id: 2)
            }
            #expect(try sink.messages().count == 2)
            #expect(try sink.connectionCount() == 2)
        }
    }

    @Test func closingFailsQueuedMessagesWithoutWaitingForTheWorker() async throws {
        try await withSMTPSink(.init(isSilent: true)) { sink in
            // The in-flight message must still be in flight when the queued one is failed: its timeout leaves a loaded
            // machine seconds to get there.
            let transport = try CurlSMTPTransport(settings: sink.settings(workers: 1, timeoutSeconds: 6))
            let first = Task { try await transport.deliver(Self.message(1), to: Self.alice, id: 1) }
            // The single worker is now stuck on the silent server; this one waits in the queue.
            try await waitUntil { try sink.connectionCount() == 1 }
            let second = Task { try await transport.deliver(Self.message(2), to: Self.alice, id: 2) }
            try await Task.sleep(for: .milliseconds(100))
            let started = ContinuousClock.now
            transport.close()
            let queuedError = await failure { try await second.value }
            // Half the worker's 6 s: a busy machine takes over a second to get here, but waiting for the worker takes 6.
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(queuedError?.kind == .other)
            #expect(queuedError?.isPermanent == false)
            let inFlightError = await failure { try await first.value }
            #expect(inFlightError?.kind == .timeout)
            await transport.shutdown()
            await #expect(throws: MailDeliveryError.self) { try await transport.deliver(Self.message(3), to: Self.alice, id: 3) }
        }
    }

    /// The one worker is held by a silent server for 8 s, long enough that a loaded machine still cancels the second
    /// message while it waits (with 2 s, the first could time out first and the worker take the second).
    @Test func cancellingAQueuedMessageWithdrawsIt() async throws {
        try await withSMTPSink(.init(isSilent: true)) { sink in
            try await withTransport(sink.settings(workers: 1, timeoutSeconds: 8)) { transport in
                async let first: Void = transport.deliver(Self.message(1), to: Self.alice, id: 1)
                try await waitUntil { try sink.connectionCount() == 1 }
                let queued = Task { try await transport.deliver(Self.message(2), to: Self.alice, id: 2) }
                try await Task.sleep(for: .milliseconds(100))
                let started = ContinuousClock.now
                queued.cancel()
                await #expect(throws: CancellationError.self) { try await queued.value }
                // Half the worker's 8 s: a busy machine took over a second to get here, but waiting for the worker takes 8.
                #expect(ContinuousClock.now - started < .seconds(4))
                _ = try? await first
            }
        }
    }

    /// The error a single delivery with `settings` fails with.
    private func deliveryError(_ settings: SMTPSettings) async throws -> MailDeliveryError {
        try await withTransport(settings) { transport in
            try await #require(throws: MailDeliveryError.self) {
                try await transport.deliver(Self.message(), to: Self.alice, id: 1)
            }
        }
    }

    /// The `MailDeliveryError` that `body` throws, or `nil` (recorded as an issue) when it throws nothing or another error.
    private func failure(_ body: () async throws -> Void) async -> MailDeliveryError? {
        await #expect(throws: MailDeliveryError.self) { try await body() }
    }

    /// Polls `condition` for up to five seconds.
    private func waitUntil(_ condition: () throws -> Bool) async throws {
        for _ in 0..<400 where try !condition() {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(try condition())
    }
}
