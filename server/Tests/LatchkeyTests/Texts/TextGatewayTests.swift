import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// The webhook and Twilio gateways against a real HTTP stub (`Tests/support/sms_gateway.py`), which checks the
/// webhook's Standard Webhooks signature and Twilio's basic auth: what each sends, and how each failure comes back
/// (given up, or retried) within the deadline.
@Suite("Text gateways", .outsideProcesses) struct TextGatewayTests {
    let number = PhoneNumber("+14155550100")!

    func text(id: Int64 = 42) -> OutgoingText {
        OutgoingText(id: id, to: number, body: "123456 is your Example sign-in code.\n\n@auth.example.com #123456")
    }

    func webhook(_ stub: SMSGatewayStub, secret: String = SMSGatewayStub.webhookSecret, deadline: Int = 5) -> WebhookTextGateway {
        WebhookTextGateway(url: stub.webhookURL, secret: secret, deadlineSeconds: deadline, clock: SystemWallClock())
    }

    func twilio(_ stub: SMSGatewayStub, token: String = SMSGatewayStub.twilioAuthToken, sender: TwilioTextGateway.Sender = .number("+15005550006"))
        -> TwilioTextGateway
    {
        TwilioTextGateway(baseURL: stub.baseURL, accountSID: SMSGatewayStub.twilioAccountSID, authToken: token, sender: sender, deadlineSeconds: 5)
    }

    /// What `body` threw, as a `TextDeliveryError`.
    func failure(_ body: () async throws -> Void) async throws -> TextDeliveryError {
        do {
            try await body()
        } catch let error as TextDeliveryError {
            return error
        }
        Issue.record("the gateway accepted the text")
        return .unavailable(gateway: "none", reason: "none")
    }

    @Test func theWebhookPostsTheTextAsSignedJSON() async throws {
        try await withSMSGatewayStub { stub in
            try await webhook(stub).deliver(text())
            let received = try stub.texts()
            #expect(received.count == 1)
            #expect(
                received.first == .init(shape: "webhook", id: "42", to: "+14155550100", body: text().body, from: nil, status: 200, signature_ok: true)
            )
        }
    }

    @Test func aWebhookSignedWithAnotherSecretIsRefusedForGood() async throws {
        try await withSMSGatewayStub { stub in
            let error = try await failure { try await webhook(stub, secret: "not the secret").deliver(text()) }
            #expect(error == .refused(gateway: "webhook", status: 401, code: nil) && error.isPermanent)
            #expect(try stub.texts().map(\.signature_ok) == [false])
        }
    }

    @Test(arguments: [TwilioTextGateway.Sender.number("+15005550006"), .messagingService("MG00000000000000000000000000000000")])
    func twilioGetsItsFormWithBasicAuth(_ sender: TwilioTextGateway.Sender) async throws {
        try await withSMSGatewayStub { stub in
            try await twilio(stub, sender: sender).deliver(text())
            let received = try #require(try stub.texts().first)
            let from =
                switch sender {
                case .number(let number): number;
                case .messagingService(let sid): sid
                }
            #expect(received == .init(shape: "twilio", id: nil, to: "+14155550100", body: text().body, from: from, status: 201, signature_ok: true))
        }
    }

    @Test func twilioRefusingANumberIsGivenUpWithItsCodeAndWithoutTheNumber() async throws {
        try await withSMSGatewayStub(.init(invalidNumbers: ["+14155550100"])) { stub in
            let error = try await failure { try await twilio(stub).deliver(text()) }
            #expect(error == .refused(gateway: "twilio", status: 400, code: 21211) && error.isPermanent)
            #expect(!error.description.contains("4155550100"))
        }
    }

    @Test func twilioWithAWrongTokenIsRefusedForGood() async throws {
        try await withSMSGatewayStub { stub in
            let error = try await failure { try await twilio(stub, token: "wrong").deliver(text()) }
            #expect(error == .refused(gateway: "twilio", status: 401, code: 20003))
        }
    }

    @Test func aGatewayAnswering500IsRetried() async throws {
        try await withSMSGatewayStub(.init(status: 500)) { stub in
            let webhookError = try await failure { try await webhook(stub).deliver(text()) }
            let twilioError = try await failure { try await twilio(stub).deliver(text()) }
            #expect(webhookError == .unavailable(gateway: "webhook", reason: "HTTP 500") && !webhookError.isPermanent, "\(webhookError)")
            #expect(twilioError == .unavailable(gateway: "twilio", reason: "HTTP 500") && !twilioError.isPermanent, "\(twilioError)")
        }
    }

    /// The gateway answers after a minute; the call gives up at its deadline of one second. The bound is loose since a
    /// loaded machine's cooperative pool can wake the deadline late, but far below the gateway's minute.
    @Test func aSlowGatewayCostsNoMoreThanTheDeadline() async throws {
        try await withSMSGatewayStub(.init(delaySeconds: 60)) { stub in
            let started = ContinuousClock.now
            let error = try await failure { try await webhook(stub, deadline: 1).deliver(text()) }
            #expect(
                error == .unavailable(gateway: "webhook", reason: "no answer within 1 s")
                    || error == .unavailable(gateway: "webhook", reason: "no answer in time"), "\(error)")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test func aGatewayAnsweringSomethingThatIsNotHTTPIsRetried() async throws {
        try await withSMSGatewayStub(.init(answersGarbage: true)) { stub in
            let error = try await failure { try await webhook(stub).deliver(text()) }
            #expect(error == .unavailable(gateway: "webhook", reason: "no HTTP answer"), "\(error)")
        }
    }

    @Test func aGatewayThatIsDownIsRetried() async throws {
        let closed = try #require(URL(string: "http://127.0.0.1:9/webhook"))
        let gateway = WebhookTextGateway(url: closed, secret: "s", deadlineSeconds: 2, clock: SystemWallClock())
        let error = try await failure { try await gateway.deliver(text()) }
        #expect(
            error == .unavailable(gateway: "webhook", reason: "could not connect")
                || error == .unavailable(gateway: "webhook", reason: "no answer within 2 s"))
    }
}
