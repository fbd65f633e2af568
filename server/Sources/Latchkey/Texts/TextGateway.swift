/// Hands one finished text to the outside world (`sms.gateway`): a webhook, Twilio, or files in development.
package protocol TextGateway: Sendable {
    /// Delivers `text`; throws when it was not accepted, a `TextDeliveryError` saying whether trying again can help
    /// (any other error counts as temporary).
    func deliver(_ text: OutgoingText) async throws
}
