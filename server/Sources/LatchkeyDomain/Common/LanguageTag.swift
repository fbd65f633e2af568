/// The language a user reads emails and pages in, as a BCP 47 tag such as `en` or `pt-BR`.
package struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    package let value: String

    package static let english = LanguageTag(checked: "en")

    private init(checked value: String) { self.value = value }

    /// Accepts `xx`, `xxx` and subtags of 1 to 8 letters or digits (`zh-Hant-TW`); `_` is read as `-`.
    package init?(_ raw: String) {
        let candidate = raw.trimmingSpaces().replacingOccurrences(of: "_", with: "-")
        let subtags = candidate.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...3).contains(primary.count),
            primary.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }),
            subtags.count <= 4,
            subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.unicodeScalars.allSatisfy(\.isASCIIAlphanumeric) })
        else { return nil }
        value = candidate
    }

    /// The request's language: `X-Firebase-Locale` first, then the most preferred `Accept-Language` entry.
    package static func preferred(firebaseLocale: String?, acceptLanguage: String?) -> LanguageTag {
        if let firebaseLocale, let tag = LanguageTag(firebaseLocale) { return tag }
        guard let acceptLanguage else { return .english }
        var best: (tag: LanguageTag, quality: Double)?
        for entry in acceptLanguage.split(separator: ",").prefix(20) {
            let fields = entry.split(separator: ";")
            guard let name = fields.first, let tag = LanguageTag(String(name)) else { continue }
            let quality = fields.dropFirst().lazy.compactMap { field -> Double? in
                let pair = String(field).trimmingSpaces()
                return pair.hasPrefix("q=") ? Double(pair.dropFirst(2)) : nil
            }.first ?? 1
            if quality > 0, quality > (best?.quality ?? 0) { best = (tag, quality) }
        }
        return best?.tag ?? .english
    }

    package var description: String { value }
}
