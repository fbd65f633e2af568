import AsyncHTTPClient
import Foundation
import LatchkeyDomain
import Logging
import NIOCore

/// Checks a captcha token with its provider's siteverify API (`appVerification.captcha`), which reCAPTCHA, hCaptcha
/// and Cloudflare Turnstile share: a form POST of `secret`, `response` and `remoteip`, answered with JSON `success`,
/// `hostname`, `error-codes` and, for scored tokens, `score`.
///
/// A token passes when the provider says `success`, its `hostname` (when given) is one of `authorizedDomains`, and
/// its `score` (when given) is at least `minimumScore`. A provider that gives no usable answer in time is
/// `AppVerificationUnavailable`, never a pass.
struct SiteverifyCaptchaVerifier: CaptchaVerifier {
    let settings: AppVerificationConfiguration.Captcha
    let authorizedDomains: Set<String>
    let logger: Logger

    func verify(_ token: String, remoteIP: String?) async throws -> CaptchaVerdict {
        var form = [("secret", settings.secret), ("response", token)]
        if let remoteIP, !remoteIP.isEmpty { form.append(("remoteip", remoteIP)) }
        var request = HTTPClientRequest(url: settings.siteverifyURL.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: QueryString.encode(form)))
        let answer: Answer
        do {
            let response = try await ProviderHTTPClient.shared.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.status.code == 200 else { throw Unusable() }
            answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: body))
        } catch {
            logger.warning("The captcha provider gave no usable answer", metadata: ["captcha.provider": "\(settings.provider.rawValue)"])
            throw AppVerificationUnavailable(service: "captcha")
        }
        guard answer.success else {
            return .failed("The captcha provider refused the token (\((answer.errorCodes ?? []).joined(separator: ", "))).")
        }
        if let hostname = answer.hostname?.lowercased(), !authorizedDomains.isEmpty, !authorizedDomains.contains(hostname) {
            return .failed("The captcha was solved on a host that is not an authorized domain.")
        }
        if let score = answer.score, score < settings.minimumScore {
            return .failed("The captcha score is below appVerification.captcha.minimumScore.")
        }
        return .passed
    }

    /// The fields of a siteverify answer that decide.
    struct Answer: Decodable {
        let success: Bool
        let hostname: String?
        let score: Double?
        let errorCodes: [String]?

        enum CodingKeys: String, CodingKey {
            case success, hostname, score
            case errorCodes = "error-codes"
        }
    }

    private struct Unusable: Error {}
}
