import Foundation
import LatchkeyDomain

/// `sms.gateway: "twilio"`: Twilio's Messages API, `POST {baseURL}/2010-04-01/Accounts/{AccountSid}/Messages.json`
/// form-encoded with `To`, `From` or `MessagingServiceSid`, and `Body`, under HTTP basic auth (the account SID and its
/// auth token). Twilio answers 201; a 400 (error 21211, an invalid `To`) or 401 is given up, a 5xx or 429 retried.
package struct TwilioTextGateway: TextGateway {
    /// Who the text is from: a Twilio number, or a messaging service that picks one.
    package enum Sender: Sendable, Equatable {
        case number(String)
        case messagingService(String)
    }

    let messagesURL: URL
    let authorization: String
    let sender: Sender
    let http: GatewayHTTPClient

    package init(baseURL: URL, accountSID: String, authToken: String, sender: Sender, deadlineSeconds: Int) {
        self.messagesURL = baseURL.appendingPathComponent("2010-04-01/Accounts/\(accountSID)/Messages.json")
        self.authorization = "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        self.sender = sender
        self.http = GatewayHTTPClient(name: "twilio", deadlineSeconds: deadlineSeconds)
    }

    package func deliver(_ text: OutgoingText) async throws {
        let from =
            switch sender {
            case .number(let number): ("From", number)
            case .messagingService(let sid): ("MessagingServiceSid", sid)
            }
        let form = QueryString.encode([("To", text.to.value), from, ("Body", text.body)])
        _ = try await http.post(
            messagesURL, body: Array(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"), ("Authorization", authorization)],
            errorCode: Self.errorCode)
    }

    /// Twilio's numeric `code` of an error answer (`{"code": 21211, "message": …}`); its message quotes the number.
    static func errorCode(_ body: Data) -> Int? {
        struct TwilioError: Decodable { let code: Int? }
        return (try? JSONDecoder().decode(TwilioError.self, from: body))?.code
    }
}
