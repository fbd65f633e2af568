/// What the outbox needs to send texts: their renderer and the gateway `sms.gateway` names.
package struct TextDelivery: Sendable {
    let renderer: TextRenderer
    let gateway: any TextGateway

    package init(renderer: TextRenderer, gateway: any TextGateway) {
        self.renderer = renderer
        self.gateway = gateway
    }
}
