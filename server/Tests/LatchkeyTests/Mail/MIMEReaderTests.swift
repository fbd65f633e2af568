import Foundation
import Latchkey
import Testing

/// Reading back what `MIMEWriter` writes, for the development mailbox.
@Suite struct MIMEReaderTests {
    @Test(arguments: ["Sign in to Latchkey", "Latchkey へのログイン — a subject long enough to need several encoded words, surely", "=?not?encoded?="])
    func messagesRoundTripThroughTheWriter(_ subject: String) throws {
        let text = "Hello,\n\nhttps://auth.example.com/__/auth/action?mode=signIn&oobCode=abc=def\n.\nTrailing space \nÜnïcödé ✓ " + String(repeating: "x", count: 200)
        let html = #"<p style="color:#18181b">Hallo <a href="https://auth.example.com/?a=1&amp;b=2">Anmelden</a> 日本語</p>"#
        let message = try MailMessage(
            from: MailAddress(address: "no-reply@example.com", displayName: "Zoë's App"), to: MailAddress(address: "alice@example.com"),
            subject: subject, textBody: text, htmlBody: html, date: Date(timeIntervalSince1970: 1_800_000_000))
        let read = MIMEReader.message(from: Data(try message.mimeData()))
        #expect(read.subject == subject)
        #expect(read.to == "alice@example.com")
        #expect(read.from == #"Zoë's App <no-reply@example.com>"# || read.from == #""Zoë's App" <no-reply@example.com>"#)
        #expect(read.date == "Fri, 15 Jan 2027 08:00:00 +0000")
        #expect(read.textBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(read.htmlBody == html)
    }

    @Test func base64PartsLatin1AndQEncodedHeadersAreDecoded() {
        let raw = """
            Subject: =?ISO-8859-1?Q?Caf=E9_ouvert?= =?UTF-8?B?4pyT?=
            To: "Bob" <bob@example.com>
            Content-Type: multipart/mixed; boundary=outer

            --outer
            Content-Type: multipart/alternative;
             boundary="inner; quoted"

            --inner; quoted
            Content-Type: text/plain; charset=iso-8859-1
            Content-Transfer-Encoding: quoted-printable

            Caf=E9=
             ouvert
            --inner; quoted
            Content-Type: text/html; charset=utf-8
            Content-Transfer-Encoding: base64

            PHA+4pyTIE9LPC9wPg==
            --inner; quoted--
            --outer
            Content-Type: application/pdf

            ignored
            --outer--
            """
        let read = MIMEReader.message(from: Data(raw.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        #expect(read.subject == "Café ouvert✓")
        #expect(read.to == #""Bob" <bob@example.com>"#)
        #expect(read.textBody == "Café ouvert")
        #expect(read.htmlBody == "<p>✓ OK</p>")
    }

    @Test func garbageIsShownNotThrown() {
        let read = MIMEReader.message(from: Data([0xFF, 0xFE, 0x00, 0x41]))
        #expect(read.subject.isEmpty && read.htmlBody == nil)
        let broken = MIMEReader.message(from: Data("Content-Type: multipart/alternative\r\n\r\nno boundary".utf8))
        #expect(broken.textBody == nil)
        #expect(MIMEReader.message(from: Data("Subject: hi\r\n\r\nbody =ZZ and =".utf8)).textBody == "body =ZZ and =")
    }
}
