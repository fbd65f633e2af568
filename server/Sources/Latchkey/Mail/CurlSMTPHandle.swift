import CCurl
import Foundation
import LatchkeyDomain

/// One libcurl easy handle set up for the relay, used by a single worker thread for its whole life.
///
/// curl keeps the SMTP connection open in the handle's connection cache between transfers, so consecutive messages
/// skip the TCP, TLS and AUTH round trips. The class is deliberately not `Sendable`: an easy handle must never be
/// used from two threads at once (https://curl.se/libcurl/c/threadsafe.html).
final class CurlSMTPHandle {
    /// The `CURL *`, which Swift sees as a raw pointer because curl declares it as `void`.
    private let handle: UnsafeMutableRawPointer
    /// curl writes a readable reason here when a call fails; it must stay allocated as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Makes and configures a handle; nothing is sent until `send`.
    init(settings: SMTPSettings) throws(MailDeliveryError) {
        guard Self.globalInitResult == CURLE_OK else {
            throw MailDeliveryError(kind: .other, detail: "curl_global_init failed: \(String(cString: curl_easy_strerror(Self.globalInitResult)))")
        }
        guard let handle = curl_easy_init() else { throw MailDeliveryError(kind: .other, detail: "curl_easy_init failed") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // Throwing from here on still runs deinit, which frees both.
        try setErrorBuffer()
        try setNoSignal()
        try setURL(settings.curlURL)
        try setRequiredTLS(settings.tls)
        if let caFile = settings.caFile { try setCAFile(caFile) }
        if let username = settings.username, let password = settings.password { try setCredentials(username: username, password: password) }
        try setTimeouts(seconds: settings.timeoutSeconds)
        try setMailFrom("<\(EmailAddress(settings.envelopeFrom)?.value ?? settings.envelopeFrom)>")
        try setUpload()
        try setReadFunction()
    }

    deinit {
        // Also closes the cached connection, sending QUIT first.
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// libcurl must be initialized once per process before any handle exists, and not concurrently with other
    /// threads using curl; a `static let` runs its initializer exactly once, on first use.
    ///
    /// SIGPIPE is ignored here too: `CURLOPT_NOSIGNAL` stops curl from doing it, and a write to a socket the relay
    /// closed must not kill the server (https://curl.se/libcurl/c/CURLOPT_NOSIGNAL.html).
    private static let globalInitResult: CURLcode = {
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Sends one message, blocking until the relay accepted it at the end of DATA or something failed.
    func send(_ message: [UInt8], to recipient: EmailAddress) throws(MailDeliveryError) {
        guard let recipients = curl_slist_append(nil, "<\(recipient.value)>") else {
            throw MailDeliveryError(kind: .other, detail: "curl_slist_append failed")
        }
        let body = Unmanaged.passRetained(MessageBody(message))
        defer {
            // The handle would otherwise keep pointers to the freed list and box until the next message.
            _ = ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, nil)
            _ = ccurl_setopt_pointer(handle, CURLOPT_READDATA, nil)
            curl_slist_free_all(recipients)
            body.release()
        }
        try setMailRecipients(recipients)
        try setReadData(body.toOpaque())
        errorBuffer[0] = 0
        let code = curl_easy_perform(handle)
        guard code != CURLE_OK else { return }
        throw MailDeliveryError(curlCode: code, responseCode: lastResponseCode, message: String(cString: errorBuffer), recipient: recipient)
    }

    /// The relay's last reply code in the latest transfer, 0 if none (https://curl.se/libcurl/c/CURLINFO_RESPONSE_CODE.html).
    private var lastResponseCode: Int {
        var code = 0
        return ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    // MARK: Options

    /// Where curl explains a failure (https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html).
    private func setErrorBuffer() throws(MailDeliveryError) {
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    }

    /// Keeps curl away from signals, which are process-wide and unsafe with threads
    /// (https://curl.se/libcurl/c/CURLOPT_NOSIGNAL.html).
    private func setNoSignal() throws(MailDeliveryError) {
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
    }

    /// The relay, with the EHLO name as the path (https://curl.se/libcurl/c/CURLOPT_URL.html, "SMTP" section).
    private func setURL(_ url: String) throws(MailDeliveryError) {
        try check(ccurl_setopt_string(handle, CURLOPT_URL, url), "CURLOPT_URL")
    }

    /// `CURLUSESSL_ALL` makes STARTTLS mandatory: curl fails with `CURLE_USE_SSL_FAILED` instead of going on in
    /// clear (https://curl.se/libcurl/c/CURLOPT_USE_SSL.html). For `smtps` the connection is TLS from the start anyway.
    private func setRequiredTLS(_ mode: SMTPSettings.TLSMode) throws(MailDeliveryError) {
        let level = mode == .none ? CURLUSESSL_NONE : CURLUSESSL_ALL
        try check(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(level.rawValue)), "CURLOPT_USE_SSL")
    }

    /// Trusts the CAs in this PEM file instead of the system store (https://curl.se/libcurl/c/CURLOPT_CAINFO.html).
    private func setCAFile(_ path: String) throws(MailDeliveryError) {
        try check(ccurl_setopt_string(handle, CURLOPT_CAINFO, path), "CURLOPT_CAINFO")
    }

    /// SMTP AUTH credentials; curl picks the best mechanism the relay offers
    /// (https://curl.se/libcurl/c/CURLOPT_USERNAME.html, https://curl.se/libcurl/c/CURLOPT_PASSWORD.html).
    private func setCredentials(username: String, password: String) throws(MailDeliveryError) {
        try check(ccurl_setopt_string(handle, CURLOPT_USERNAME, username), "CURLOPT_USERNAME")
        try check(ccurl_setopt_string(handle, CURLOPT_PASSWORD, password), "CURLOPT_PASSWORD")
    }

    /// Bounds connecting and the whole of one message, so a silent relay cannot hold a worker forever
    /// (https://curl.se/libcurl/c/CURLOPT_TIMEOUT.html, https://curl.se/libcurl/c/CURLOPT_CONNECTTIMEOUT.html).
    private func setTimeouts(seconds: Int) throws(MailDeliveryError) {
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT, seconds), "CURLOPT_TIMEOUT")
        try check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, seconds), "CURLOPT_CONNECTTIMEOUT")
    }

    /// The envelope sender for `MAIL FROM` (https://curl.se/libcurl/c/CURLOPT_MAIL_FROM.html).
    private func setMailFrom(_ address: String) throws(MailDeliveryError) {
        try check(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, address), "CURLOPT_MAIL_FROM")
    }

    /// The envelope recipients for `RCPT TO`; curl does not copy the list (https://curl.se/libcurl/c/CURLOPT_MAIL_RCPT.html).
    private func setMailRecipients(_ list: UnsafeMutablePointer<curl_slist>) throws(MailDeliveryError) {
        try check(ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list), "CURLOPT_MAIL_RCPT")
    }

    /// For SMTP, "upload" means sending a message with DATA (https://curl.se/libcurl/c/CURLOPT_UPLOAD.html).
    private func setUpload() throws(MailDeliveryError) {
        try check(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1), "CURLOPT_UPLOAD")
    }

    /// curl pulls the message through this callback; it must not capture anything, since it becomes a C function
    /// pointer, so the message reaches it through `CURLOPT_READDATA` (https://curl.se/libcurl/c/CURLOPT_READFUNCTION.html).
    private func setReadFunction() throws(MailDeliveryError) {
        let code = ccurl_setopt_read_function(handle, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
            guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
            return Unmanaged<MessageBody>.fromOpaque(userdata).takeUnretainedValue().read(into: buffer, capacity: size * count)
        }
        try check(code, "CURLOPT_READFUNCTION")
    }

    /// The `MessageBody` the read callback reads from (https://curl.se/libcurl/c/CURLOPT_READDATA.html).
    private func setReadData(_ body: UnsafeMutableRawPointer) throws(MailDeliveryError) {
        try check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, body), "CURLOPT_READDATA")
    }

    private func check(_ code: CURLcode, _ option: String) throws(MailDeliveryError) {
        guard code != CURLE_OK else { return }
        throw MailDeliveryError(kind: .other, detail: "curl refused \(option): \(String(cString: curl_easy_strerror(code)))")
    }
}

/// The message being uploaded and how much of it curl has read; lives only during one `curl_easy_perform`.
private final class MessageBody {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies the next chunk into curl's buffer; 0 tells curl the message is complete.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        let chunk = offset..<offset + count
        bytes.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(start: buffer, count: count).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[chunk]))
        }
        offset += count
        return count
    }
}
