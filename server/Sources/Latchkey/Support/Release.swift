/// This build's release, as `latchkey --version` and the start-up line report it.
package enum Release {
    package static let version = "0.9.0"
}
