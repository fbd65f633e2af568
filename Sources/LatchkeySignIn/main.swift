// latchkey-signin: email-link sign-in from a terminal, built on LatchkeyAuth.
//
//     latchkey-signin [--service URL] [--api-key KEY] [--session FILE] [--custom-token | --phone NUMBER]
//                     [--enroll-phone NUMBER] [--sign-out] [--help]
//
// Asks for an address, mails it a sign-in link, waits for the link (or the code the email shows) to be pasted, signs
// in, and prints the ID token's claims. With --custom-token it signs in with a custom token a backend minted, read
// from standard input (never from the command line, which other users can see); with --phone it texts NUMBER a code
// and reads the code from standard input. An account with a second factor is asked for it: a phone factor's code is
// texted to it, an authenticator's typed in. With --enroll-phone, the signed-in user then enrolls NUMBER as a second
// factor with the code texted to it.
// The session is kept in FILE (mode 0600; by default one per service), so the
// next run against the same service is already signed in.
import Foundation
import LatchkeyAuth

let usage = """
    usage: latchkey-signin [--service URL] [--api-key KEY] [--session FILE] [--custom-token | --phone NUMBER]
                           [--enroll-phone NUMBER] [--sign-out] [--help]
      --service URL   the Latchkey service (default http://localhost:8080)
      --api-key KEY   one of its API keys (default dev-api-key)
      --session FILE  where the session is kept (default one per service: signin-SCHEME-HOST-PORT.json
                      in $XDG_CONFIG_HOME/latchkey, else ~/.config/latchkey)
      --custom-token  sign in with a custom token read from standard input instead of an email link
      --phone NUMBER  sign in with a code texted to NUMBER, read from standard input
      --enroll-phone NUMBER
                      once signed in, enroll NUMBER as a second factor with the code texted to it
      --sign-out      forget the stored session
      --help          print this
    """

struct Options {
    var service: URL
    var apiKey = "dev-api-key"
    /// `nil` for the default: a file per service, so that no service is sent another's refresh token.
    var session: URL?
    var signOut = false
    var customToken = false
    var phoneNumber: String?
    var enrolledPhone: String?
    var help = false

    init(_ arguments: [String]) throws {
        var serviceText = "http://localhost:8080"
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--sign-out": signOut = true
            case "--custom-token": customToken = true
            case "--help", "-h": help = true
            case "--service", "--api-key", "--session", "--phone", "--enroll-phone":
                guard let value = rest.popFirst() else { throw Failure("\(flag) needs a value\n\(usage)") }
                switch flag {
                case "--service": serviceText = value
                case "--api-key": apiKey = value
                case "--phone": phoneNumber = value
                case "--enroll-phone": enrolledPhone = value
                default: session = URL(fileURLWithPath: value)
                }
            default: throw Failure("unknown option \(flag)\n\(usage)")
            }
        }
        guard let service = URL(string: serviceText), service.scheme != nil else {
            throw Failure("--service must be a URL such as http://localhost:8080")
        }
        self.service = service
    }

    /// Where the session is kept.
    var persistence: FileUserPersistence {
        session.map(FileUserPersistence.init(url:)) ?? FileUserPersistence(service: service, prefix: "signin-")
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes straight to standard output, unbuffered, so that a prompt shows before the program waits for its answer.
func say(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}

/// One line from standard input, trimmed; the end of input is an error.
func ask(_ prompt: String) throws -> String {
    say(prompt, terminator: " ")
    guard let line = readLine() else { throw Failure("no answer on standard input") }
    return line.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Finishes a sign-in stopped at the account's second factor, as Firebase's guides do with `MultiFactorResolver`: the
/// first factor listed; a phone gets its code texted, an authenticator app's code is typed.
func passSecondFactor(_ resolver: MultiFactorResolver, auth: Auth) async throws -> User {
    guard let hint = resolver.hints.first else { throw Failure("the account asks for a second factor and lists none") }
    if let phone = hint as? PhoneMultiFactorInfo {
        let provider = PhoneAuthProvider.provider(auth: auth)
        let verificationID = try await provider.verifyPhoneNumber(with: phone, multiFactorSession: resolver.session)
        say("A code is on its way to \(phone.phoneNumber).")
        let credential = provider.credential(withVerificationID: verificationID, verificationCode: try ask("Code:"))
        return try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential)).user
    }
    let code = try ask("Code from the authenticator app \(hint.displayName ?? hint.uid):")
    return try await resolver.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code)).user
}

func run() async throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    if options.help {
        say(usage, terminator: "")
        return
    }
    let service = options.service
    let persistence = options.persistence
    // `Auth` takes a file it refuses for no session; say why, rather than asking for the address without a word.
    do {
        _ = try persistence.load()
    } catch {
        say("Not using the stored session: \(error)")
    }
    let auth = Auth(serviceURL: service, apiKey: options.apiKey, persistence: persistence)
    if options.signOut {
        try auth.signOut()
        say("Signed out.")
        return
    }
    let user: User
    if let signedIn = auth.currentUser {
        user = signedIn
        say("Already signed in as \(signedIn.email ?? signedIn.phoneNumber ?? signedIn.uid).")
    } else if options.customToken {
        user = try await auth.signIn(withCustomToken: try ask("Custom token:")).user
        say("Signed in as \(user.uid).")
    } else if let number = options.phoneNumber {
        let phone = PhoneAuthProvider.provider(auth: auth)
        let verificationID = try await phone.verifyPhoneNumber(number)
        say("A code is on its way to \(number).")
        user = try await auth.signIn(with: phone.credential(withVerificationID: verificationID, verificationCode: try ask("Code:"))).user
        say("Signed in as \(user.phoneNumber ?? user.uid).")
    } else {
        let email = try ask("Email address:")
        // The link leads back to the service itself: a terminal has no app to open it, the user pastes it here.
        try await auth.sendSignInLink(toEmail: email, actionCodeSettings: ActionCodeSettings(url: service, handleCodeInApp: true))
        say("A sign-in link is on its way to \(email).")
        let link = try ask("Paste the link from the email, or the code it shows:")
        do {
            user = try await auth.signIn(withEmail: email, link: link).user
        } catch let error as AuthError where error.code == .secondFactorRequired {
            guard let resolver = error.resolver else { throw error }
            user = try await passSecondFactor(resolver, auth: auth)
        }
        say("Signed in as \(user.email ?? user.uid).")
    }
    if let number = options.enrolledPhone {
        // Firebase's enrollment: a multi-factor session of the signed-in user, the code texted, its credential enrolled.
        let phone = PhoneAuthProvider.provider(auth: auth)
        let verificationID = try await phone.verifyPhoneNumber(number, multiFactorSession: try await user.multiFactor.session())
        say("A code is on its way to \(number).")
        let credential = phone.credential(withVerificationID: verificationID, verificationCode: try ask("Code:"))
        try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: nil)
        say("\(number) is now a second factor.")
    }
    let token = try await user.getIDTokenResult()
    let claims = try JSONSerialization.data(withJSONObject: token.claims, options: [.prettyPrinted, .sortedKeys])
    say("ID token claims (valid until \(token.expirationDate)):")
    say(String(decoding: claims, as: UTF8.self))
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("latchkey-signin: \(error)\n".utf8))
    exit(1)
}
