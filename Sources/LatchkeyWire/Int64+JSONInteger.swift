extension Int64 {
    /// Plain JSON integer text only (`-?(0|[1-9][0-9]*)`): `"+6"`, `" 6"` and `"06"` are not integers to Google.
    public init?(jsonInteger text: String) {
        var digits = Substring(text).utf8
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard let first = digits.first, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 }),
            first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        self.init(text)
    }
}
