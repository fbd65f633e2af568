import Foundation
import LatchkeyWire

/// Where an emailed link leads and which app may open it (Firebase's `ActionCodeSettings`, the same fields).
public struct ActionCodeSettings: Sendable, Equatable {
    /// The continue URL: where the link leads once used. Its host must be one of the service's authorized domains.
    public var url: URL?
    /// Whether the app opens the link itself (required for sign-in links) rather than the service's landing page.
    public var handleCodeInApp = false
    public private(set) var iOSBundleID: String?
    public private(set) var androidPackageName: String?
    public private(set) var androidInstallIfNotAvailable = false
    public private(set) var androidMinimumVersion: String?

    public init(url: URL? = nil, handleCodeInApp: Bool = false) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
    }

    public mutating func setIOSBundleID(_ bundleID: String) {
        iOSBundleID = bundleID
    }

    public mutating func setAndroidPackageName(_ packageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        androidPackageName = packageName
        androidInstallIfNotAvailable = installIfNotAvailable
        androidMinimumVersion = minimumVersion
    }

    /// `accounts:sendOobCode`'s request for `type`, with these settings.
    func request(_ type: OobRequestType, email: String? = nil, idToken: String? = nil, newEmail: String? = nil) -> SendOobCodeRequest {
        SendOobCodeRequest(
            requestType: type, email: email, continueUrl: url?.absoluteString, canHandleCodeInApp: handleCodeInApp ? true : nil,
            iOSBundleId: iOSBundleID, androidPackageName: androidPackageName,
            androidInstallApp: androidPackageName == nil ? nil : androidInstallIfNotAvailable,
            androidMinimumVersion: androidMinimumVersion, idToken: idToken, newEmail: newEmail)
    }
}
