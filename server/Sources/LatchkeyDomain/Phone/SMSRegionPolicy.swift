/// Which regions texts may go to: Firebase's `smsRegionConfig`, either every region but a deny list
/// (`allowByDefault.disallowedRegions`) or an allow list alone (`allowlistOnly.allowedRegions`), by ISO 3166 alpha-2
/// code. A number's region is the one libphonenumber places it in (`PhoneNumber.region`), so `CA` and `US` are told
/// apart behind +1.
package enum SMSRegionPolicy: Sendable, Equatable {
    case allowByDefault(disallowed: Set<String>)
    case allowlistOnly(allowed: Set<String>)

    /// Firebase's default: every region.
    package static let everywhere = SMSRegionPolicy.allowByDefault(disallowed: [])

    package func allows(_ number: PhoneNumber) -> Bool {
        switch self {
        case .allowByDefault(let disallowed): !disallowed.contains(number.region)
        case .allowlistOnly(let allowed): allowed.contains(number.region)
        }
    }

    /// Refuses a number of a region the policy keeps texts from, in Firebase's words.
    func admit(_ number: PhoneNumber) throws(SignInError) {
        guard allows(number) else { throw .regionNotAllowed }
    }
}
