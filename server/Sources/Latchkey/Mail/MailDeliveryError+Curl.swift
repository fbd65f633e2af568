import CCurl
import Foundation
import LatchkeyDomain

extension MailDeliveryError {
    /// Classifies a failed `curl_easy_perform`.
    ///
    /// - Parameters:
    ///   - code: what `curl_easy_perform` returned (https://curl.se/libcurl/c/libcurl-errors.html).
    ///   - responseCode: `CURLINFO_RESPONSE_CODE`, the relay's last reply in this transfer, 0 when there was none
    ///     (https://curl.se/libcurl/c/CURLINFO_RESPONSE_CODE.html).
    ///   - message: the text curl left in `CURLOPT_ERRORBUFFER`; `curl_easy_strerror` is used when it is empty.
    ///   - recipient: removed from the detail, in case curl ever quotes it.
    init(curlCode code: CURLcode, responseCode: Int, message: String, recipient: EmailAddress) {
        let smtpCode = (400...599).contains(responseCode) ? responseCode : nil
        let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        let detail = text.replacingOccurrences(of: recipient.value, with: recipient.redacted, options: .caseInsensitive)
        self.init(kind: Self.kind(of: code, smtpCode: smtpCode), smtpCode: smtpCode, detail: detail)
    }

    /// Replies that only make sense as an answer to AUTH (RFC 4954); 454 is left out as it also answers STARTTLS.
    private static let authenticationReplies: Set<Int> = [534, 535, 538]

    private static func kind(of code: CURLcode, smtpCode: Int?) -> Kind {
        switch code {
        case CURLE_LOGIN_DENIED:
            return .authenticationFailed
        case CURLE_COULDNT_CONNECT:
            return .connectionRefused
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotResolve
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_USE_SSL_FAILED, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            return .tlsFailed
        default:
            break
        }
        // Refused commands come back as CURLE_SEND_ERROR (MAIL, RCPT) or CURLE_WEIRD_SERVER_REPLY (end of DATA);
        // the reply code is what tells them apart from a broken connection.
        if let smtpCode {
            return authenticationReplies.contains(smtpCode) ? .authenticationFailed : .rejected
        }
        switch code {
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return .connectionLost
        default:
            return .other
        }
    }
}
