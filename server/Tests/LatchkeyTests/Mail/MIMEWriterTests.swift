import Foundation
import Latchkey
import Testing

@Suite("MIMEWriter")
struct MIMEWriterTests {
    /// The whole sign-in email, byte for byte, so any change to headers, encoding or layout shows up in review.
    @Test func goldenSignInMessageIsWrittenByteForByte() throws {
        let golden = #"""
            Date: Sun, 22 Nov 2026 04:16:11 +0000
            From: Latchkey <no-reply@latchkey.example>
            To: =?UTF-8?B?w4lsb2RpZSBEdXByw6k=?= <elodie.dupre@example.com>
            Subject: =?UTF-8?B?Q29ubmV4aW9uIMOgIExhdGNoa2V5?=
            Message-ID: <golden-0001@latchkey.example>
            MIME-Version: 1.0
            Auto-Submitted: auto-generated
            Content-Type: multipart/alternative; boundary="=_golden"

            --=_golden
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: quoted-printable

            Bonjour,

            Pour vous connecter =C3=A0 Latchkey, ouvrez ce lien dans les 15 minutes :
            https://latchkey.example/__/auth/action?mode=3DsignIn&oobCode=3DZk3xQ9vL2mN=
            8pR4tW7yB1cD6fG0hJ5kS&apiKey=3Ddemo

            Si vous n'avez rien demand=C3=A9, ignorez ce message.

            --=_golden
            Content-Type: text/html; charset=utf-8
            Content-Transfer-Encoding: quoted-printable

            <p>Bonjour,</p>
            <p><a href=3D"https://latchkey.example/__/auth/action?mode=3DsignIn&amp;oob=
            Code=3DZk3xQ9vL2mN8pR4tW7yB1cD6fG0hJ5kS&amp;apiKey=3Ddemo">Se connecter =C3=
            =A0 Latchkey</a></p>

            --=_golden--

            """#
        let output = String(decoding: try Self.makeGoldenMessage().mimeData(boundary: "=_golden"), as: UTF8.self)
        #expect(output == golden.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func outputIsSevenBitWithCRLFLinesOfAtMost76Characters() throws {
        let message = try Self.makeMessage(
            subject: "Вход в Latchkey — ログインのご案内 — Connexion à Latchkey, merci de votre patience",
            textBody: String(repeating: "é=\t ", count: 60) + "\r\nlone CR\rlone LF\n. dot\nend  ",
            displayName: "Une personne au nom très long, avec des virgules et des accents éèêë"
        )
        let bytes = try message.mimeData()
        #expect(bytes.allSatisfy { $0 < 0x80 })
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\n") })
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") })
        #expect(lines.last == "")
    }

    @Test(arguments: [
        "Connexion à Latchkey",
        "Вход",
        "Latchkey にサインイン",
        "ログインリンクのご案内：こちらのリンクは十五分間のみ有効です。よろしくお願いいたします。",
        "👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦 family emoji that are long grapheme clusters",
        "=?UTF-8?B?SGk=?= looks like an encoded word",
        " padded with spaces ",
        "An-unbreakable-ASCII-word-that-is-far-too-long-to-fit-on-one-seventy-six-column-line",
    ])
    func nonPlainSubjectsAreEncodedWordsThatDecodeBack(subject: String) throws {
        let output = String(decoding: try Self.makeMessage(subject: subject).mimeData(boundary: "=_t"), as: UTF8.self)
        let header = try #require(MIMETestDecoder.unfoldedHeader("Subject", in: output))
        let words = header.split(separator: " ")
        #expect(words.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") && $0.count <= 75 })
        #expect(MIMETestDecoder.decodeEncodedWords(header) == subject)
        let headerLines = output.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject:") }.prefix {
            $0.hasPrefix("Subject:") || $0.hasPrefix(" ")
        }
        #expect(headerLines.allSatisfy { $0.utf8.count <= 76 })
    }

    @Test(arguments: [
        ("Sign in to Latchkey", ["Subject: Sign in to Latchkey"]),
        ("", ["Subject:"]),
        (
            "Your Latchkey sign-in link for the account you asked about a moment ago is ready",
            ["Subject: Your Latchkey sign-in link for the account you asked about a moment", " ago is ready"]
        ),
    ])
    func asciiSubjectsStayPlainAndFoldAtSpaces(subject: String, expectedLines: [String]) throws {
        let output = String(decoding: try Self.makeMessage(subject: subject).mimeData(boundary: "=_t"), as: UTF8.self)
        let lines = output.components(separatedBy: "\r\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("Subject:") })
        #expect(Array(lines[start..<(start + expectedLines.count)]) == expectedLines)
        #expect(lines[start + expectedLines.count].hasPrefix("Message-ID:"))
    }

    @Test(arguments: [
        ("plain text", "plain text"),
        ("a=b", "a=3Db"),
        ("trailing space ", "trailing space=20"),
        ("trailing tab\t", "trailing tab=09"),
        ("inner\ttab and  spaces", "inner\ttab and  spaces"),
        ("é", "=C3=A9"),
        ("one\ntwo", "one\r\ntwo"),
        ("one\r\ntwo", "one\r\ntwo"),
        ("one\rtwo", "one\r\ntwo"),
        ("one\n\ntwo\n", "one\r\n\r\ntwo\r\n"),
        ("space before break \nnext", "space before break=20\r\nnext"),
        (".\n.. lines", "=2E\r\n=2E. lines"),
        ("nul\u{0}and del\u{7F}", "nul=00and del=7F"),
        (String(repeating: "x", count: 76), String(repeating: "x", count: 76)),
        (String(repeating: "x", count: 77), String(repeating: "x", count: 75) + "=\r\nxx"),
        (String(repeating: "x", count: 74) + "é", String(repeating: "x", count: 74) + "=\r\n=C3=A9"),
        (String(repeating: "x", count: 75) + " ", String(repeating: "x", count: 75) + "=\r\n=20"),
    ])
    func quotedPrintableEncodesExamples(text: String, expected: String) {
        #expect(MIMEWriter.quotedPrintable(text) == expected)
    }

    /// Shifting a multibyte character across the soft-break column proves `=XX` triplets are never split.
    @Test(arguments: 60...80)
    func quotedPrintableLongLinesRoundTrip(prefixLength: Int) throws {
        let text = String(repeating: "a", count: prefixLength) + "éà=日本語 \t" + String(repeating: "ü ", count: 50) + "\nЛатчкей  "
        let encoded = MIMEWriter.quotedPrintable(text)
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 && $0.utf8.allSatisfy { $0 < 0x80 } })
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") })
        #expect(MIMETestDecoder.decodeQuotedPrintable(encoded) == text)
    }

    @Test(arguments: [
        "Hello\nBcc: eve@evil.example", "Hello\r\nBcc: eve@evil.example", "Hello\rBcc:", "Hello\u{0}", "Tab\there", "Esc\u{1B}[0m", "Del\u{7F}",
    ])
    func subjectWithControlCharactersIsRejected(subject: String) {
        #expect(throws: MailError.invalidHeader("subject contains a control character")) {
            try Self.makeMessage(subject: subject)
        }
    }

    @Test(arguments: [
        "<a@b.example>\r\nBcc: eve@evil.example", "no-brackets@b.example", "<a b@c.example>", "<no-domain>", "<@b.example>", "<a@>", "<a@b@c>",
        "<é@b.example>",
    ])
    func malformedMessageIDIsRejected(messageID: String) {
        #expect(throws: MailError.self) {
            try Self.makeMessage(messageID: messageID)
        }
    }

    @Test func messageIDIsRandomURLSafeAndInTheSendersDomain() throws {
        let first = MailMessage.makeMessageID(domain: "latchkey.example")
        let second = MailMessage.makeMessageID(domain: "latchkey.example")
        #expect(first != second)
        #expect(first.hasPrefix("<") && first.hasSuffix("@latchkey.example>"))
        let token = first.dropFirst().prefix { $0 != "@" }
        #expect(token.count == 24)
        #expect(token.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" })
        #expect(try Self.makeMessage(messageID: nil).messageID.hasSuffix("@latchkey.example>"))
    }

    @Test(arguments: ["golden", "=_bad\r\nBcc: eve@evil.example", "=_has space", "=_" + String(repeating: "x", count: 69), "=_é"])
    func invalidBoundaryIsRejected(boundary: String) throws {
        let message = try Self.makeMessage()
        #expect(throws: MailError.self) {
            try message.mimeData(boundary: boundary)
        }
    }

    @Test func defaultBoundaryIsRandomAndCannotAppearInQuotedPrintable() throws {
        let message = try Self.makeMessage()
        let boundaries = try (0..<2).map { _ in
            let output = String(decoding: try message.mimeData(), as: UTF8.self)
            let header = try #require(MIMETestDecoder.unfoldedHeader("Content-Type", in: output))
            return String(try #require(header.split(separator: "\"").dropFirst().first))
        }
        #expect(boundaries[0] != boundaries[1])
        #expect(boundaries.allSatisfy { $0.hasPrefix("=_") && $0.count == 26 })
    }

    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"),
        (-1.0, "Wed, 31 Dec 1969 23:59:59 +0000"),
        (951_782_400.0, "Tue, 29 Feb 2000 00:00:00 +0000"),
        (1_795_320_971.75, "Sun, 22 Nov 2026 04:16:11 +0000"),
        (253_402_300_799.0, "Fri, 31 Dec 9999 23:59:59 +0000"),
        (.infinity, "Fri, 31 Dec 9999 23:59:59 +0000"),
        (.nan, "Thu, 01 Jan 1970 00:00:00 +0000"),
    ])
    func dateIsFormattedInUTC(secondsSince1970: Double, expected: String) {
        #expect(MIMEWriter.formatDate(Date(timeIntervalSince1970: secondsSince1970)) == expected)
    }

    private static func makeGoldenMessage() throws -> MailMessage {
        try MailMessage(
            from: MailAddress(address: "no-reply@latchkey.example", displayName: "Latchkey"),
            to: MailAddress(address: "elodie.dupre@example.com", displayName: "Élodie Dupré"),
            subject: "Connexion à Latchkey",
            textBody: """
                Bonjour,

                Pour vous connecter à Latchkey, ouvrez ce lien dans les 15 minutes :
                https://latchkey.example/__/auth/action?mode=signIn&oobCode=Zk3xQ9vL2mN8pR4tW7yB1cD6fG0hJ5kS&apiKey=demo

                Si vous n'avez rien demandé, ignorez ce message.

                """,
            htmlBody: """
                <p>Bonjour,</p>
                <p><a href="https://latchkey.example/__/auth/action?mode=signIn&amp;oobCode=Zk3xQ9vL2mN8pR4tW7yB1cD6fG0hJ5kS&amp;apiKey=demo">\
                Se connecter à Latchkey</a></p>

                """,
            date: Date(timeIntervalSince1970: 1_795_320_971),
            messageID: "<golden-0001@latchkey.example>"
        )
    }

    private static func makeMessage(
        subject: String = "Sign in",
        textBody: String = "Hello",
        displayName: String? = nil,
        messageID: String? = "<test@latchkey.example>"
    ) throws(MailError) -> MailMessage {
        try MailMessage(
            from: MailAddress(address: "no-reply@latchkey.example", displayName: "Latchkey"),
            to: MailAddress(address: "user@example.com", displayName: displayName),
            subject: subject,
            textBody: textBody,
            htmlBody: "<p>\(textBody)</p>",
            date: Date(timeIntervalSince1970: 0),
            messageID: messageID
        )
    }
}

/// Independent decoders for what `MIMEWriter` produces, written from the RFCs rather than from the writer's code.
enum MIMETestDecoder {
    /// The value of the first header named `name`, unfolded (RFC 5322 §2.2.3: remove each CRLF before whitespace).
    static func unfoldedHeader(_ name: String, in message: String) -> String? {
        let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ")
        let line = unfolded.components(separatedBy: "\r\n").first { $0.hasPrefix("\(name):") }
        return line.map { String($0.dropFirst(name.count + 1).drop { $0 == " " }) }
    }

    /// Decodes a space-separated run of `=?UTF-8?B?…?=` words; `nil` if a word is malformed or splits a UTF-8 sequence.
    static func decodeEncodedWords(_ value: String) -> String? {
        var text = ""
        for word in value.split(separator: " ") {
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2))),
                let piece = String(validating: Array(data), as: UTF8.self)
            else { return nil }
            text += piece
        }
        return text
    }

    /// Decodes quoted-printable with CRLF line breaks into text with LF line breaks; `nil` on a malformed escape.
    static func decodeQuotedPrintable(_ encoded: String) -> String? {
        var bytes: [UInt8] = []
        let lines = encoded.components(separatedBy: "\r\n")
        for (lineIndex, line) in lines.enumerated() {
            var utf8 = Array(line.utf8)
            let isSoftBreak = utf8.last == UInt8(ascii: "=")
            if isSoftBreak { utf8.removeLast() }
            var index = 0
            while index < utf8.count {
                if utf8[index] == UInt8(ascii: "=") {
                    guard index + 2 < utf8.count, let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16)
                    else { return nil }
                    bytes.append(byte)
                    index += 3
                } else {
                    bytes.append(utf8[index])
                    index += 1
                }
            }
            if !isSoftBreak, lineIndex < lines.count - 1 { bytes.append(UInt8(ascii: "\n")) }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
