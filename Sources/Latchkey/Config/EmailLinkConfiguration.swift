/// How sign-in links behave.
///
/// - `emailLink.codeLifetimeSeconds` (integer, default `600`, 1 to 86400): how long a link stays valid.
/// - `emailLink.typedCode` (boolean, default `false`; `true` in the embedded default): the email also shows a short
///   code (`TypedCode`) to type on the device that asked, which `accounts:signInWithEmailLink` takes as `oobCode`.
package struct EmailLinkConfiguration: Sendable {
    package var codeLifetimeSeconds: Int
    package var typedCode: Bool

    init(_ read: inout ConfigSectionReader) {
        codeLifetimeSeconds = read.int("emailLink.codeLifetimeSeconds", default: 600, in: 1...86_400)
        typedCode = read.bool("emailLink.typedCode") ?? false
    }
}
