import Latchkey
import LatchkeyDomain
import Testing

@Suite struct LanguageTagTests {
    @Test(arguments: ["en", "pt-BR", "zh-Hant-TW", "fr_CA"])
    func acceptsBCP47Tags(_ raw: String) {
        #expect(LanguageTag(raw) != nil)
    }

    @Test(arguments: ["", "e", "english", "en-", "en-<b>", "en\r\n", "12"])
    func refusesAnythingElse(_ raw: String) {
        #expect(LanguageTag(raw) == nil)
    }

    @Test(arguments: [
        ("ja", "fr", "ja"), (nil, "fr;q=0.4, de;q=0.8, *;q=0.9", "de"), (nil, "xx-invalid-!!, es", "es"), (nil, "de;q=0", "en"), (nil, nil, "en"),
    ] as [(String?, String?, String)])
    func prefersTheFirebaseLocaleThenTheBestAcceptLanguage(_ firebase: String?, _ accept: String?, _ expected: String) {
        #expect(LanguageTag.preferred(firebaseLocale: firebase, acceptLanguage: accept).value == expected)
    }
}
