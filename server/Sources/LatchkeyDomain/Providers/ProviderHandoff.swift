import Foundation

/// Where the hosted handler page (`/__/auth/handler`) hands a provider's answer over, in the form each Firebase SDK
/// expects (spec §3.4). The answer travels as `link`: the handler's own URL with the provider's parameters, which the
/// app gives `signInWithIdp` as `requestUri`.
package enum ProviderHandoff: Codable, Sendable, Equatable {
    /// A web page on an authorized domain: `redirectUrl#link=…&sessionId=…&providerId=…`. The `sessionId` is the hex
    /// SHA-256 of the `eventId` the page kept: the page checks it against that value, and finishes with the value itself.
    case web(redirectURL: String)
    /// An iOS app: `<scheme>://firebaseauth/link?deep_link_id=…`, the scheme being the reversed client id or
    /// `app-<Google app id>`, as the iOS SDK registers it.
    case iOS(scheme: String, eventID: String)
    /// An Android app: an `intent://firebase.auth/` URL for the SDK's `genericidp` activity.
    case android(packageName: String, eventID: String)

    /// The URL the browser goes to with `link`.
    package func destination(link: String, sessionID: String, providerID: String, authDomain: String) -> String {
        guard case .web(let redirectURL) = self else { return appURL(("link", link), authDomain: authDomain) ?? "" }
        let base = redirectURL.split(separator: "#", maxSplits: 1).first.map(String.init) ?? redirectURL
        return base + "#" + QueryString.encode([("link", link), ("sessionId", sessionID), ("providerId", providerID)])
    }

    /// Where an app learns that its sign-in could not start, as the SDKs read it (`firebaseError`, a JSON object with
    /// `code` and `message`); nil for a web page, which gets a page instead.
    package func failure(code: String, message: String, authDomain: String) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let error = String(decoding: (try? encoder.encode(["code": code, "message": message])) ?? Data(), as: UTF8.self)
        return appURL(("firebaseError", error), authDomain: authDomain)
    }

    /// The app's URL carrying `result` (`link` or `firebaseError`) with the event id its SDK waits for; nil for the web.
    private func appURL(_ result: (name: String, value: String), authDomain: String) -> String? {
        switch self {
        case .web:
            return nil
        case .iOS(let scheme, let eventID):
            let callback =
                "https://\(authDomain)/__/auth/callback?"
                + QueryString.encode([("authType", "signInWithRedirect"), (result.name, result.value), ("eventId", eventID)])
            return "\(scheme)://firebaseauth/link?" + QueryString.encode([("deep_link_id", callback)])
        case .android(let packageName, let eventID):
            return "intent://firebase.auth/#Intent;scheme=genericidp;package=\(packageName);S.authType=signInWithRedirect;"
                + "S.eventId=\(eventID.percentEncodedForQuery);S.\(result.name)=\(result.value.percentEncodedForQuery);B.encryptionEnabled=false;end;"
        }
    }

    /// The URL scheme the iOS SDK listens on: the reversed OAuth client id (`com.googleusercontent.apps.123`), or
    /// `app-` and the Google app id with `:` as `-`. Nil when neither is plausible.
    package static func iOSScheme(clientID: String?, appID: String?) -> String? {
        func plausible(_ scheme: String) -> String? {
            let allowed = scheme.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || ".-+".unicodeScalars.contains($0) }
            return allowed && (1...200).contains(scheme.count) && scheme.first?.isLetter == true ? scheme : nil
        }
        if let clientID, !clientID.isEmpty { return plausible(clientID.split(separator: ".").reversed().joined(separator: ".")) }
        if let appID, !appID.isEmpty { return plausible("app-" + appID.replacingOccurrences(of: ":", with: "-")) }
        return nil
    }

    package var json: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }

    package init?(json: String?) {
        guard let json, let handoff = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = handoff
    }
}
