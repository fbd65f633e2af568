/// The development mailbox's listing (`templates/dev/mailbox.html.mustache`).
struct MailboxPage {
    /// One row of the listing.
    struct Row {
        let id: String
        let to: String
        let subject: String
        let date: String
    }

    /// One text of the listing, shown whole: a text is short.
    struct TextRow {
        let to: String
        let body: String
    }

    let nonce: String
    let messages: [Row]
    /// Where the file transport writes, to tell the developer where the files are.
    let directory: String
    /// False when `mail.transport` is `smtp`: then nothing arrives here.
    let isFileTransport: Bool
    /// Stored, since templates see stored properties only.
    let isEmpty: Bool
    let texts: [TextRow]
    /// Where the file gateway writes.
    let textsDirectory: String
    /// False when `sms.gateway` is not `file`: then no text arrives here.
    let isFileGateway: Bool
    let hasTexts: Bool

    init(nonce: String, messages: [Row], directory: String, isFileTransport: Bool, texts: [TextRow], textsDirectory: String, isFileGateway: Bool) {
        self.nonce = nonce
        self.messages = messages
        self.directory = directory
        self.isFileTransport = isFileTransport
        isEmpty = messages.isEmpty
        self.texts = texts
        self.textsDirectory = textsDirectory
        self.isFileGateway = isFileGateway
        hasTexts = !texts.isEmpty
    }
}

/// One message of the development mailbox (`templates/dev/message.html.mustache`).
struct MessagePage {
    let nonce: String
    let id: String
    let from: String
    let to: String
    let subject: String
    let date: String
    let textBody: String?
    let hasHTMLBody: Bool
    /// The http(s) links of the text part, so a click opens them in the whole window.
    let links: [String]
    let hasLinks: Bool

    init(nonce: String, id: String, message: ReceivedMessage) {
        self.nonce = nonce
        self.id = id
        from = message.from
        to = message.to
        subject = message.subject
        date = message.date
        textBody = message.textBody
        hasHTMLBody = message.htmlBody != nil
        links = Self.links(in: message.textBody ?? "")
        hasLinks = !links.isEmpty
    }

    /// The http(s) URLs in `text`, in order, each once.
    static func links(in text: String) -> [String] {
        var links: [String] = []
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }) {
            let candidate = String(word)
            if candidate.hasPrefix("https://") || candidate.hasPrefix("http://"), !links.contains(candidate) { links.append(candidate) }
        }
        return links
    }
}
