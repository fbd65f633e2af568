import Latchkey
import LatchkeyDomain
import Testing

/// The decoder under the wire types: strict about JSON types, and clear about which field failed and how.
@Suite struct JSONValueDecoderTests {
    struct Sample: Decodable, Equatable {
        struct Inner: Decodable, Equatable {
            let flag: Bool
        }
        let name: String
        let count: Int
        let ratio: Double?
        let inner: Inner?
        let tags: [String]?
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONValueDecoder.decode(type, from: try JSONParser.parse(Array(json.utf8)))
    }

    func sample(_ json: String) throws -> Sample {
        try decode(Sample.self, json)
    }

    @Test func decodesObjectsArraysAndScalars() throws {
        let decoded = try sample(#"{"name":"a","count":-3,"ratio":0.5,"inner":{"flag":true},"tags":["x","y"],"other":[null]}"#)
        #expect(decoded == Sample(name: "a", count: -3, ratio: 0.5, inner: .init(flag: true), tags: ["x", "y"]))
    }

    @Test func nullAndAbsentOptionalsAreNil() throws {
        let decoded = try sample(#"{"name":"a","count":1,"ratio":null,"inner":null}"#)
        #expect(decoded.ratio == nil && decoded.inner == nil && decoded.tags == nil)
    }

    @Test func membersAreFoundUnderTheirSnakeCaseNames() throws {
        struct Fields: Decodable {
            let continueUrl: String
            let iOSBundleId: String
        }
        let fields = try decode(Fields.self, #"{"continue_url":"a","ios_bundle_id":"b"}"#)
        #expect(fields.continueUrl == "a" && fields.iOSBundleId == "b")
    }

    @Test func anAbsentRequiredMemberIsKeyNotFound() throws {
        #expect {
            try sample(#"{"name":"a"}"#)
        } throws: { error in
            guard case .keyNotFound(let key, let context) = error as? DecodingError else { return false }
            return key.stringValue == "count" && context.codingPath.isEmpty
        }
    }

    @Test func aNullRequiredMemberIsValueNotFound() throws {
        #expect {
            try sample(#"{"name":null,"count":1}"#)
        } throws: { error in
            guard case .valueNotFound(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["name"]
        }
    }

    @Test(arguments: [
        #"{"name":1,"count":1}"#, #"{"name":"a","count":"1"}"#, #"{"name":"a","count":1,"inner":{"flag":"true"}}"#,
        #"{"name":"a","count":1,"tags":["x",2]}"#, #"{"name":"a","count":1,"tags":"x"}"#,
    ])
    func aValueOfTheWrongTypeIsATypeMismatchAtItsPath(_ json: String) throws {
        #expect {
            try sample(json)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return ["name", "count", "inner", "tags"].contains(context.codingPath.first?.stringValue ?? "")
        }
    }

    static let integers: [(json: String, expected: Int?)] = [
        ("6", 6), ("-42", -42), ("9223372036854775807", Int.max), ("9223372036854775808", nil), ("6.5", nil), ("6.0", nil), ("1e2", nil),
        (#""6""#, nil), ("true", nil),
    ]

    @Test("Integers are plain JSON integer numbers that fit", arguments: integers)
    func readsIntegers(_ json: String, _ expected: Int?) throws {
        struct Count: Decodable {
            let count: Int
        }
        #expect((try? decode(Count.self, #"{"count":\#(json)}"#))?.count == expected)
    }

    @Test func aFailedReadInAListLeavesItsPlace() throws {
        struct Mixed: Decodable {
            let items: [String]
            init(from decoder: any Decoder) throws {
                var list = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .items)
                var items: [String] = []
                while !list.isAtEnd {
                    if let string = try? list.decode(String.self) { items.append(string) } else { items.append("#\(try list.decode(Int.self))") }
                }
                self.items = items
            }
            enum CodingKeys: CodingKey { case items }
        }
        #expect(try decode(Mixed.self, #"{"items":["a",1,"b"]}"#).items == ["a", "#1", "b"])
    }
}
