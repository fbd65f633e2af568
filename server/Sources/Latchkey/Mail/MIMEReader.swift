import Foundation

/// A message read back from MIME, decoded for people to look at (the development mailbox).
package struct ReceivedMessage: Sendable, Equatable {
    package var from = ""
    package var to = ""
    package var subject = ""
    package var date = ""
    package var textBody: String?
    package var htmlBody: String?
}

/// Reads the messages `MIMEWriter` writes, and ordinary MIME mail like them: unfolded headers with RFC 2047 encoded
/// words, `multipart/*` bodies (nested ones too), quoted-printable, base64 and 7/8-bit parts in UTF-8 or Latin-1.
///
/// It is lenient, as a mail reader must be: whatever it cannot make sense of is shown as it is or left out, never
/// thrown. Only the development mailbox uses it, on files Latchkey wrote itself.
package enum MIMEReader {
    /// How deep multiparts may nest before the rest is ignored.
    static let maximumDepth = 8

    package static func message(from data: Data) -> ReceivedMessage {
        // CRLF is one `Character` in Swift, so both line ends are named.
        let lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" }
        let (headers, body) = split(lines)
        var message = ReceivedMessage(
            from: decodeHeader(headers["from"] ?? ""), to: decodeHeader(headers["to"] ?? ""), subject: decodeHeader(headers["subject"] ?? ""),
            date: headers["date"] ?? "")
        collect(headers: headers, body: body, into: &message, depth: 0)
        return message
    }

    /// Header fields by lower-cased name (unfolded; the first of repeated ones), and the body's lines.
    private static func split(_ lines: [Substring]) -> (headers: [String: String], body: ArraySlice<Substring>) {
        var headers: [String: String] = [:]
        var current: (name: String, value: String)?
        var index = lines.startIndex
        while index < lines.endIndex, !lines[index].isEmpty {
            let line = lines[index]
            if line.first == " " || line.first == "\t", current != nil {
                current?.value += line
            } else if let colon = line.firstIndex(of: ":") {
                if let current, headers[current.name] == nil { headers[current.name] = current.value }
                current = (line[..<colon].lowercased().trimmingSpaces(), String(line[line.index(after: colon)...]).trimmingSpaces())
            }
            index += 1
        }
        if let current, headers[current.name] == nil { headers[current.name] = current.value }
        return (headers, lines[min(index + 1, lines.endIndex)...])
    }

    private static func collect(headers: [String: String], body: ArraySlice<Substring>, into message: inout ReceivedMessage, depth: Int) {
        let (type, parameters) = contentType(headers["content-type"] ?? "text/plain")
        if type.hasPrefix("multipart/") {
            guard depth < maximumDepth, let boundary = parameters["boundary"], !boundary.isEmpty else { return }
            for part in parts(of: body, boundary: boundary) {
                let (partHeaders, partBody) = split(Array(part))
                collect(headers: partHeaders, body: partBody, into: &message, depth: depth + 1)
            }
            return
        }
        guard type == "text/plain" || type == "text/html" else { return }
        let bytes = decodeBody(body.joined(separator: "\r\n"), encoding: (headers["content-transfer-encoding"] ?? "7bit").lowercased())
        let text = decodeText(bytes, charset: parameters["charset"])
        if type == "text/plain", message.textBody == nil { message.textBody = text }
        if type == "text/html", message.htmlBody == nil { message.htmlBody = text }
    }

    /// `type/subtype` in lower case and its parameters (names lower-cased, quotes removed).
    static func contentType(_ value: String) -> (String, [String: String]) {
        var fields: [String] = []
        var field = ""
        var isQuoted = false
        for character in value {
            if character == "\"" { isQuoted.toggle() }
            if character == ";", !isQuoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        var parameters: [String: String] = [:]
        for parameter in fields.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            var value = String(parameter[parameter.index(after: equals)...]).trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            parameters[String(parameter[..<equals]).trimmingSpaces().lowercased()] = value
        }
        return ((fields.first ?? "").trimmingSpaces().lowercased(), parameters)
    }

    /// The lines between `--boundary` delimiters, up to `--boundary--`.
    private static func parts(of body: ArraySlice<Substring>, boundary: String) -> [ArraySlice<Substring>] {
        var parts: [ArraySlice<Substring>] = []
        var start: Int?
        for index in body.indices {
            let line = body[index].trimmingTrailingWhitespace()
            guard line == "--" + boundary || line == "--" + boundary + "--" else { continue }
            if let start { parts.append(body[start..<index]) }
            if line.hasSuffix(boundary + "--") { return parts }
            start = index + 1
        }
        return parts
    }

    static func decodeBody(_ body: String, encoding: String) -> [UInt8] {
        switch encoding {
        case "quoted-printable": decodeQuotedPrintable(body)
        case "base64": Array(Data(base64Encoded: body.filter { !$0.isWhitespace }) ?? Data())
        default: Array(body.utf8)
        }
    }

    /// RFC 2045 §6.7: `=XX` is a byte, `=` at a line end is a soft break; anything malformed is kept as it is.
    static func decodeQuotedPrintable(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                index += 3
            } else if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
            } else if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func decodeText(_ bytes: [UInt8], charset: String?) -> String {
        switch charset?.lowercased() {
        case "iso-8859-1", "latin1", "us-ascii", "windows-1252":
            String(bytes.map { Character(Unicode.Scalar($0)) })
        default:
            String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A header value with its RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) decoded; whitespace between
    /// two encoded words is dropped, as RFC 2047 §6.2 says.
    static func decodeHeader(_ value: String) -> String {
        var output = ""
        var pendingSpace = ""
        var previousWasEncoded = false
        for token in value.split(separator: " ", omittingEmptySubsequences: false) {
            if let decoded = decodeEncodedWord(token) {
                output += (previousWasEncoded ? "" : pendingSpace) + decoded
                previousWasEncoded = true
            } else {
                output += pendingSpace + token
                previousWasEncoded = false
            }
            pendingSpace = " "
        }
        return output
    }

    private static func decodeEncodedWord(_ word: Substring) -> String? {
        guard word.hasPrefix("=?"), word.hasSuffix("?="), word.count > 4 else { return nil }
        let fields = word.dropFirst(2).dropLast(2).split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let bytes: [UInt8]
        switch fields[1].uppercased() {
        case "B":
            guard let data = Data(base64Encoded: String(fields[2])) else { return nil }
            bytes = Array(data)
        case "Q":
            bytes = decodeQuotedPrintable(fields[2].replacingOccurrences(of: "_", with: " "))
        default:
            return nil
        }
        return decodeText(bytes, charset: String(fields[0]))
    }
}

extension Substring {
    fileprivate func trimmingTrailingWhitespace() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
