import Foundation
import LatchkeyDomain
import Testing

@Suite struct PhoneNumberTests {
    private struct Vector: Decodable {
        let raw: String
        let e164: String?
        let region: String?
    }

    /// Every region's example numbers as libphonenumber gives them: accepted, normalized to its E.164 form and placed
    /// in its region; the same numbers at lengths their calling code never uses: refused.
    @Test func followsLibphonenumber() async throws {
        let script = TestWorkspace.repositoryRoot.appendingPathComponent("Tests/support/phone_number_vectors.py")
        let python = ProcessInfo.processInfo.environment["LATCHKEY_PYTHON"] ?? "python3"
        let run = try await ChildProcess.run([python, script.path], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0, "\(run.error)")
        let vectors = try run.output.split(separator: "\n").map { try JSONDecoder().decode(Vector.self, from: Data($0.utf8)) }
        #expect(vectors.count > 2000 && vectors.contains { $0.e164 == nil })
        for vector in vectors {
            let number = PhoneNumber(vector.raw)
            #expect(number?.value == vector.e164, "\(vector.raw)")
            if let region = vector.region { #expect(number?.region == region, "\(vector.raw)") }
        }
    }

    @Test(arguments: [
        "", "+", "15551234567", "+1 555 123 4567 ext 2", "+0123456789", "+99912345678", "+1\n2025550123", "+4420 7946 0958x",
        "+1234567890123456", "++12025550123", " +1 202 555 01234",
    ])
    func refusesWhatNoCarrierDelivers(_ raw: String) {
        #expect(PhoneNumber(raw) == nil)
    }

    @Test func masksAsFirebaseAndRedactsForLogs() throws {
        let number = try #require(PhoneNumber(" +44 (20) 7946-0958 "))
        #expect(number.value == "+442079460958" && number.callingCode == 44 && number.region == "GB")
        #expect(number.masked == "+********0958")
        #expect(number.redacted == "+44********58")
        #expect(PhoneNumber("+1 (202) 555-0123")?.value == "+12025550123")
    }
}
