/// How sign-in links behave.
///
/// - `emailLink.codeLifetimeSeconds` (integer, default `600`, 1 to 86400): how long a link stays valid.
/// - `emailLink.typedCode` (boolean, default `false`; `true` in the embedded default): the email also shows a short
///   code (`TypedCode`) to type on the device that asked, which `accounts:signInWithEmailLink` takes as `oobCode`.
/// - `emailLink.coolOffSeconds` (integer, default `86400`, 60 to 2592000): how long an address gets no sign-in email
///   after its owner said "this wasn't me" (`SignInReport`), unless the owner lifts it.
package struct EmailLinkConfiguration: Sendable {
    package var codeLifetimeSeconds: Int
    package var typedCode: Bool
    package var coolOffSeconds: Int

    init(_ read: inout ConfigSectionReader) {
        codeLifetimeSeconds = read.int("emailLink.codeLifetimeSeconds", default: 600, in: 1...86_400)
        typedCode = read.bool("emailLink.typedCode") ?? false
        coolOffSeconds = read.int("emailLink.coolOffSeconds", default: 86_400, in: 60...2_592_000)
    }
}
