import Foundation
import Hummingbird
import LatchkeyDomain

/// The files that let the configured apps open `/__/auth/action` links themselves: Apple's
/// `apple-app-site-association` (Universal Links, and shared web credentials) and Google's `assetlinks.json`
/// (Android App Links). A platform with no configured app answers 404.
struct AppLinksController {
    let apps: AppsConfiguration

    /// The path pattern of the links apps open (sign-in links, and the other actions' when the app handles the code), as
    /// Apple's `components` and the intent filter of docs/mobile-apps.md name it.
    static let linkPattern = ActionLink.actionPath + "*"

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(".well-known/apple-app-site-association", use: appleAppSiteAssociation)
            .get("apple-app-site-association", use: appleAppSiteAssociation)
            .get(".well-known/assetlinks.json", use: assetLinks)
    }

    /// Apple's format: <https://developer.apple.com/documentation/bundleresources/applinks>.
    struct AppleAppSiteAssociation: Encodable {
        struct AppLinks: Encodable {
            let details: [Detail]
        }
        struct Detail: Encodable {
            let appIDs: [String]
            let components: [Component]
        }
        struct Component: Encodable {
            let path: String
            let comment: String

            enum CodingKeys: String, CodingKey {
                case path = "/"
                case comment
            }
        }
        struct WebCredentials: Encodable {
            let apps: [String]
        }
        let applinks: AppLinks
        let webcredentials: WebCredentials
    }

    /// One statement of Google's Digital Asset Links: <https://developers.google.com/digital-asset-links/v1/getting-started>.
    struct AssetStatement: Encodable {
        struct Target: Encodable {
            let namespace = "android_app"
            let packageName: String
            let sha256CertFingerprints: [String]

            enum CodingKeys: String, CodingKey {
                case namespace
                case packageName = "package_name"
                case sha256CertFingerprints = "sha256_cert_fingerprints"
            }
        }
        let relation = ["delegate_permission/common.handle_all_urls"]
        let target: Target
    }

    @Sendable func appleAppSiteAssociation(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard !apps.ios.isEmpty else { throw APIError.notFound }
        let association = AppleAppSiteAssociation(
            applinks: .init(
                details: apps.ios.map { app in
                    .init(appIDs: [app.appID], components: [.init(path: Self.linkPattern, comment: "Latchkey sign-in links and email actions the app handles")])
                }),
            webcredentials: .init(apps: apps.ios.map(\.appID)))
        return try Self.cacheable(association)
    }

    @Sendable func assetLinks(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard !apps.android.isEmpty else { throw APIError.notFound }
        let statements = apps.android.map {
            AssetStatement(target: .init(packageName: $0.packageName, sha256CertFingerprints: $0.sha256CertFingerprints))
        }
        return try Self.cacheable(statements)
    }

    /// JSON served as `application/json` (Apple requires it, without a redirect) and cached for an hour, as Apple's
    /// CDN and Android's verifier fetch these files rarely anyway.
    private static func cacheable(_ value: some Encodable) throws -> Response {
        let body = try JSONEncoder.api.encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
