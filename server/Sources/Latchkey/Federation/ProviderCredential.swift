import Foundation
import LatchkeyDomain

/// The credential of a `signInWithIdp` request, merged as Firebase merges it: the parameters of `requestUri`'s query,
/// then those of `postBody`, then those of the URI's fragment, each overriding the one before (so an implicit flow's
/// `#id_token=…` and an app's own `postBody` both work).
struct ProviderCredential: Sendable {
    let parameters: [String: String]
    /// The request URI without its query and fragment (which may hold a token), for the
    /// `INVALID_CREDENTIAL_OR_PROVIDER_ID` detail.
    let requestURI: String

    init(requestURI text: String?, postBody: String?) throws(SignInError) {
        guard let text, !text.isEmpty else { throw .missingRequestURI }
        guard text.utf8.count <= 8192, let uri = URLComponents(string: text), let scheme = uri.scheme, !scheme.isEmpty, uri.host != nil,
            let query = QueryString.decode(uri.percentEncodedQuery ?? ""), let fragment = QueryString.decode(uri.percentEncodedFragment ?? "")
        else { throw .invalidRequestURI }
        guard let form = QueryString.decode(postBody ?? "") else { throw .invalidIDPResponse("the postBody is not form-encoded") }
        var parameters: [String: String] = [:]
        for (name, value) in query + form + fragment { parameters[name] = value }
        self.parameters = parameters
        var base = uri
        (base.query, base.fragment) = (nil, nil)
        requestURI = base.string ?? ""
    }

    subscript(name: String) -> String? {
        parameters[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
