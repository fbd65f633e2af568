import Foundation
import NIOCore

extension ServerConfiguration {
    /// What to tell an operator when the server could not take its address (SwiftNIO says only
    /// `bind(descriptor:ptr:bytes:): Address already in use`), or nil for any other error.
    package func listenFailure(_ error: any Error) -> StartupError? {
        guard let error = error as? IOError else { return nil }
        let address = "\(host):\(port) (server.host, server.port)"
        switch error.errnoCode {
        case EADDRINUSE:
            return StartupError("cannot listen on \(address): another process is using the port; stop it or choose another server.port")
        case EACCES:
            return StartupError("cannot listen on \(address): this user may not use ports below 1024; choose a higher server.port")
        case EADDRNOTAVAIL:
            return StartupError("cannot listen on \(address): this machine has no such address; correct server.host")
        default:
            return nil
        }
    }
}
