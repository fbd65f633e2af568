import Foundation

/// The one-time code an emailed link carries (sign-in and every other email action), and the key the store finds it by.
///
/// A code is its `CreationSecond`, then 43 random base64url characters (256 bits). Its key is those seven characters
/// before the code's keyed hash: the hash alone would find it, the prefix orders the keys by creation, so a new code
/// appends to the code index. A code of 43 characters, as links made before 0.10 carry, is keyed by its hash alone.
package enum LinkCode {
    package static func make(at now: Date) -> String {
        CreationSecond.base36(now) + ServerSecret.makeToken()
    }

    package static func key(_ code: String, secret: ServerSecret) -> Data {
        let hash = secret.hash(code, for: .linkCode)
        guard code.utf8.count == CreationSecond.length + 43 else { return hash }
        return Data(code.utf8.prefix(CreationSecond.length)) + hash
    }
}
