import Latchkey
import Testing

@Suite("MailDeliveryError")
struct MailDeliveryErrorTests {
    @Test(arguments: [
        (MailDeliveryError(kind: .rejected, smtpCode: 550), true),
        (MailDeliveryError(kind: .rejected, smtpCode: 554), true),
        (MailDeliveryError(kind: .rejected, smtpCode: 451), false),
        (MailDeliveryError(kind: .rejected, smtpCode: 421), false),
        (MailDeliveryError(kind: .authenticationFailed, smtpCode: 535), true),
        (MailDeliveryError(kind: .authenticationFailed), true),
        (MailDeliveryError(kind: .authenticationFailed, smtpCode: 454), false),
        (MailDeliveryError(kind: .connectionRefused), false),
        (MailDeliveryError(kind: .couldNotResolve), false),
        (MailDeliveryError(kind: .timeout), false),
        (MailDeliveryError(kind: .tlsFailed), false),
        (MailDeliveryError(kind: .connectionLost), false),
        (MailDeliveryError(kind: .other), false),
    ])
    func fiveHundredsAndRefusedCredentialsArePermanent(_ error: MailDeliveryError, _ isPermanent: Bool) {
        #expect(error.isPermanent == isPermanent, "\(error)")
    }

    @Test func theOutboxGivesUpOnPermanentFailuresOnly() {
        let policy = DeliveryPolicy()
        #expect(policy.retryDelay(afterAttempt: 1, error: MailDeliveryError(kind: .rejected, smtpCode: 550)) == nil)
        #expect(policy.retryDelay(afterAttempt: 1, error: MailDeliveryError(kind: .authenticationFailed, smtpCode: 535)) == nil)
        #expect(policy.retryDelay(afterAttempt: 1, error: MailDeliveryError(kind: .rejected, smtpCode: 451)) != nil)
        #expect(policy.retryDelay(afterAttempt: 1, error: MailDeliveryError(kind: .connectionRefused)) != nil)
    }

    @Test(arguments: [
        (MailDeliveryError(kind: .connectionRefused, detail: "Failed to connect"), "connection refused (Failed to connect)"),
        (MailDeliveryError(kind: .tlsFailed), "TLS handshake failed"),
        (MailDeliveryError(kind: .rejected, smtpCode: 550, detail: "RCPT failed: 550"), "550 mailbox unavailable (RCPT failed: 550)"),
        (MailDeliveryError(kind: .authenticationFailed, smtpCode: 535), "535 authentication credentials invalid"),
        (MailDeliveryError(kind: .rejected, smtpCode: 499), "499 temporary failure"),
    ])
    func describesWhatHappened(_ error: MailDeliveryError, _ description: String) {
        #expect(error.description == description)
    }
}
