import Latchkey
import LatchkeyDomain
import Testing

@Suite struct RequesterSummaryTests {
    /// The audit trail keeps the User-Agent, but nothing in it may reorder or break what an operator reads.
    @Test func theUserAgentLosesControlAndBidiCharacters() {
        let hostile = "Mozilla/5.0 \u{202E}moc.live\u{202C} \u{2066}x\u{2069}\u{200F}\r\nX-Injected: 1\u{85}\u{9B}31m\u{1B}[2J"
        let summary = RequesterSummary(userAgent: hostile)
        let kept = summary.userAgent ?? ""
        #expect(kept == "Mozilla/5.0 moc.live xX-Injected: 131m[2J")
        #expect(!kept.unicodeScalars.contains { $0.isControl || $0.isBidiControl })
    }

    @Test func aLongUserAgentIsShortened() {
        let summary = RequesterSummary(userAgent: String(repeating: "a", count: 1000))
        #expect(summary.userAgent?.count == 201)
    }

    @Test(arguments: [
        ("Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36", "Chrome", "Android"),
        ("Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 CriOS/140.0 Mobile/15E148 Safari/604.1", "Chrome", "iPad"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox", "Linux"),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/140.0 Safari/537.36", "Chrome", "ChromeOS"),
        ("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36", "Samsung Internet", "Android"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 OPR/120.0", "Opera", "Windows"),
    ] as [(String, String?, String?)])
    func devicesAreNamedFromAFixedList(_ userAgent: String, _ browser: String?, _ platform: String?) {
        #expect(RequesterSummary(userAgent: userAgent).device == DeviceName(browser: browser, platform: platform))
    }

    @Test func anUnrecognisedUserAgentNamesNothing() {
        #expect(RequesterSummary(userAgent: "Call +1 555 0100 now").device == DeviceName())
        #expect(RequesterSummary().device == DeviceName())
    }
}
