/// Claims an admin gives an account (Firebase's custom claims, `customAttributes`): a JSON object of at most 1,000
/// bytes whose members every ID token of the account carries at its top level, from the next token on. A claim may not
/// take the name of one the token sets itself: Firebase's reserved names, and Latchkey's own (`sid` says which session a
/// token belongs to, `email_verified` whether to trust the address).
package struct CustomClaims: Sendable, Equatable {
    /// The object as the admin gave it: stored, and answered as `customAttributes`.
    package let json: String

    package static let maximumBytes = 1000
    static let reserved: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti", "nbf", "nonce", "sub",
        "user_id", "sid", "email", "email_verified", "phone_number", "name", "picture",
    ]

    /// The claims `json` gives, checked; nil for an empty object, which removes them.
    package static func parse(_ json: String) throws(SignInError) -> CustomClaims? {
        guard json.utf8.count <= maximumBytes else { throw .claimsTooLarge }
        guard case .object(let members)? = try? JSONParser.parse(Array(json.utf8)), members.values.allSatisfy(\.hasFiniteNumbers) else {
            throw .invalidClaims
        }
        if let name = members.keys.sorted().first(where: reserved.contains) { throw .forbiddenClaim(name) }
        return members.isEmpty ? nil : CustomClaims(stored: json)
    }

    /// Claims as stored, checked when they were set: kept as they are, so that no later save loses them.
    package init(stored json: String) {
        self.json = json
    }

    /// The members, as ID tokens carry them: read when a token is made rather than with every account, and without
    /// any member a newer rule would refuse (a name reserved since it was set).
    package var members: [String: JSONValue] {
        guard case .object(let members)? = try? JSONParser.parse(Array(json.utf8)) else { return [:] }
        return members.filter { !Self.reserved.contains($0.key) && $0.value.hasFiniteNumbers }
    }
}

extension JSONValue {
    /// Whether every number in the value is one a token can carry (no 1e400).
    fileprivate var hasFiniteNumbers: Bool {
        switch self {
        case .number(let text): Double(text)?.isFinite == true
        case .array(let values): values.allSatisfy(\.hasFiniteNumbers)
        case .object(let members): members.values.allSatisfy(\.hasFiniteNumbers)
        case .null, .bool, .string: true
        }
    }
}
