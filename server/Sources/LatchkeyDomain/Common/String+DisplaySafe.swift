extension Unicode.Scalar {
    /// C0 and C1 control characters and DEL: line breaks, escapes and the like, which can split a header or a log line
    /// or drive a terminal.
    package var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// Bidirectional formatting characters (marks, embeddings, overrides, isolates): they reorder what is displayed
    /// around them, so `moc.elpmaxe` can read as `example.com`.
    package var isBidiControl: Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension StringProtocol {
    /// Whether the text holds a C0 or C1 control character or DEL.
    package var containsControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControl)
    }

    /// The text without control and bidirectional formatting characters: what may be shown of outside input in an
    /// email, a page, a log line or a terminal.
    package var displaySafe: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControl && !$0.isBidiControl }))
    }
}
