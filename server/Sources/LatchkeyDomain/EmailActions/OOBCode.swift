/// The `oobCode` field of a request: the code of an emailed link (or a typed code).
package enum OOBCode {
    /// Absent or empty is `MISSING_OOB_CODE`; longer than any code this server makes, `INVALID_OOB_CODE`.
    package static func requestField(_ code: String?) throws(SignInError) -> String {
        guard let code, !code.isEmpty else { throw .missingOOBCode }
        guard code.utf8.count <= 256 else { throw .invalidOOBCode }
        return code
    }
}
