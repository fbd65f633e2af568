import Foundation
import Latchkey
import LatchkeyWire
import Testing

/// The files `firebase auth:export` writes, and the hash parameters Firebase's console shows, as `latchkey import`
/// reads them.
@Suite struct FirebaseExportFileTests {
    /// What firebase-tools before 15.19 wrote: a display name with a comma quoted but its own quotes not doubled,
    /// custom claims quoted with their quotes doubled, CRLF or LF, a trailing comma.
    @Test func olderFirebaseQuotingIsRead() throws {
        let columns = ["u1", "a@example.com", "true", "aGFzaA==", "c2FsdA==", #""Lovelace, "Ada" B""#, "", "g-1", "a@gmail.com", #""G, "Ada""#, ""]
            + Array(repeating: "", count: 12) + ["1500000000000", "1600000000000", "", "true", #""{""role"":""x"",""admin"":true}""#, ""]
        let text = columns.joined(separator: ",") + "\r\n" + "u2,,false" + String(repeating: ",", count: 25) + "\n"
        let users = try FirebaseExportFile.read(Data(text.utf8), named: "users.CSV").users
        #expect(users.count == 2)
        let ada = try #require(users.first)
        #expect(ada.localId == "u1" && ada.email == "a@example.com" && ada.emailVerified == true && ada.disabled == true)
        #expect(ada.displayName == #"Lovelace, "Ada" B"# && ada.customAttributes == #"{"role":"x","admin":true}"#)
        #expect(ada.createdAt == "1500000000000" && ada.lastSignedInAt == "1600000000000" && ada.passwordHash == "aGFzaA==")
        #expect(ada.providerUserInfo == [UploadAccountRequest.Provider(providerId: "google.com", rawId: "g-1", email: "a@gmail.com", displayName: #"G, "Ada"#)])
        #expect(users[1].localId == "u2" && users[1].email == nil && users[1].providerUserInfo == nil)
        #expect(try FirebaseCSV.rows(#""a ""quoted"" word",x"#) == [[#"a "quoted" word"#, "x"]])
    }

    /// Older firebase-tools: a name with a comma that ends with a quote, no claims on the line to close what a strict
    /// reading would leave open, and claims before 11.25.2 written unquoted. Every user is read, none merged.
    @Test func olderLinesAreNeverMerged() throws {
        let first = ["u1", "a@x.com", "false", "", "", #""Doe, "JJ"""#] + Array(repeating: "", count: 17) + ["1500000000000", "", "", "false", "", ""]
        let second = ["u2", "b@x.com", "false", "", "", #""Roe, Ann""#] + Array(repeating: "", count: 17)
            + ["1500000000001", "", "", "false", #"{"role":"x","level":2}"#, ""]
        let text = [first, second].map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        let users = try FirebaseExportFile.read(Data(text.utf8), named: "u.csv").users
        #expect(users.map(\.localId) == ["u1", "u2"])
        #expect(users.map(\.displayName) == [#"Doe, "JJ""#, "Roe, Ann"])
        #expect(users[1].customAttributes == #"{"role":"x","level":2}"# && users[1].createdAt == "1500000000001")
    }

    /// What current firebase-tools writes: 52 columns and the trailing comma, RFC 4180 quoting, six more providers.
    @Test func currentFirebaseQuotingIsRead() throws {
        var columns = Array(repeating: "", count: 53)
        columns[0...5] = ["u1", "a@example.com", "false", "", "", #""Ada ""B"", C""#]
        columns[23] = "1500000000000"
        columns[27] = #""{""role"":""x"",""note"":""say \"hi\""",""n"":[1,2]}""#
        columns[28...30] = ["001.apple", "a@privaterelay.appleid.com", #""Ada, B""#]
        columns[48] = "y-9"
        let ada = try #require(try FirebaseExportFile.read(Data((columns.joined(separator: ",") + "\n").utf8), named: "u.csv").users.first)
        #expect(ada.displayName == #"Ada "B", C"# && ada.customAttributes == #"{"role":"x","note":"say \"hi\"","n":[1,2]}"#)
        #expect(ada.providerUserInfo?.map(\.providerId) == ["apple.com", "yahoo.com"])
        #expect(ada.providerUserInfo?.first?.displayName == "Ada, B")
    }

    @Test(arguments: [
        ("u1,a@example.com,true\n", "line 1 has 3 columns"), ("\"u1", "a quoted field is not closed"),
        ("u1" + String(repeating: ",", count: 29) + "\n", "line 1 has 30 columns"),
        ("u1" + String(repeating: ",", count: 23) + "yesterday" + String(repeating: ",", count: 4) + "\n", "line 1: column 24 is not a time"),
    ])
    func malformedCSVIsRefused(_ text: String, _ message: String) {
        let error = #expect(throws: FirebaseExportFile.Unreadable.self) { try FirebaseExportFile.read(Data(text.utf8), named: "users.csv") }
        #expect(error?.description.hasPrefix(message) == true)
    }

    @Test func jsonTimesAreNumbersOrStrings() throws {
        let json = #"{"users":[{"localId":"u1","createdAt":1500000000000,"lastSignedInAt":"1600000000000","emailVerified":true}]}"#
        let user = try #require(try FirebaseExportFile.read(Data(json.utf8), named: "users.json").users.first)
        #expect(user.createdAt == "1500000000000" && user.lastSignedInAt == "1600000000000" && user.emailVerified == true)
        #expect(throws: FirebaseExportFile.Unreadable.self) { try FirebaseExportFile.read(Data(#"{"users":[{"createdAt":1.5}]}"#.utf8), named: "u.json") }
    }

    @Test func theConsolesHashParametersAreRead() throws {
        let console = """
            hash_config {
              algorithm: SCRYPT,
              base64_signer_key: c2lnbmVy,
              base64_salt_separator: Bw==,
              rounds: 8,
              mem_cost: 14,
            }
            """
        #expect(try FirebaseHashConfig(console) == FirebaseHashConfig("algorithm: SCRYPT\nhash_key: c2lnbmVy\nsalt_separator: Bw==\nrounds: 8\nmem_cost: 14"))
        #expect(try FirebaseHashConfig("algorithm: STANDARD_SCRYPT\nmem_cost: 1024") != FirebaseHashConfig("algorithm: STANDARD_SCRYPT"))
        for text in ["algorithm: SCRYPT\nsigner: x", "rounds: 8", "algorithm: SHA256\nrounds: eight", "hash_config {\n algorithm: BCRYPT\n", "algorithm: MD5\nhash_input_order: BOTH"] {
            #expect(throws: FirebaseHashConfig.Unreadable.self, "\(text)") { try FirebaseHashConfig(text) }
        }
    }
}
