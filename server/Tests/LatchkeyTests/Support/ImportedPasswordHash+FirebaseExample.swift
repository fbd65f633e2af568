import Foundation
import Latchkey
import LatchkeyDomain
import Testing

extension ImportedPasswordHash {
    /// The example of github.com/firebase/scrypt's README: a project's hash parameters and one user's salt and hash,
    /// for the password `user1password`.
    static func firebaseExample() throws -> ImportedPasswordHash {
        func bytes(_ base64: String) throws -> Data { try #require(Data(base64Encoded: base64)) }
        return try ImportedPasswordHash(
            algorithm: .scrypt,
            parameters: PasswordHashParameters(
                signerKey: try bytes("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
                saltSeparator: try bytes("Bw=="), rounds: 8, memoryCost: 14),
            hash: try bytes("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
            salt: try bytes("42xEC+ixf3L2lw=="))
    }
}
