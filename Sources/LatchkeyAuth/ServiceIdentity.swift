import Foundation

/// The service a stored session belongs to: the scheme, host, port and path of its URL, and the API key (the project
/// as the client knows it). A session is kept with it and adopted only by an `Auth` for the same, so that a refresh
/// token never goes to another service, nor over http when it was made over https.
struct ServiceIdentity: Codable, Sendable, Equatable {
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    var apiKey: String

    init(serviceURL: URL, apiKey: String) {
        scheme = serviceURL.scheme?.lowercased() ?? ""
        host = serviceURL.host?.lowercased() ?? ""
        // An implied port is the scheme's, so `https://a` and `https://a:443` are the same service.
        port = serviceURL.port ?? ["http": 80, "https": 443][scheme]
        path = serviceURL.path.hasSuffix("/") ? String(serviceURL.path.dropLast()) : serviceURL.path
        self.apiKey = apiKey
    }

    /// A name for the service's stored session, such as `https-auth.example.com-443`: one per scheme, host and port.
    static func storageName(for serviceURL: URL) -> String {
        let service = ServiceIdentity(serviceURL: serviceURL, apiKey: "")
        return [service.scheme, service.host, service.port.map(String.init)].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: "-")
    }
}
