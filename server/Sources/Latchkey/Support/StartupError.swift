/// A problem that stops the server from starting, said in words an operator can act on.
package struct StartupError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
