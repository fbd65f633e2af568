import ServiceLifecycle

/// Reloads a `SigningKeyRing` from the store every few seconds while the server runs, so that a key added on any
/// instance (`latchkey keys rotate`) is published here within that time, long before the default rotation delay lets
/// it sign.
package struct SigningKeyReloader: Service {
    let ring: SigningKeyRing
    var interval: Duration = .seconds(2)

    package init(ring: SigningKeyRing) {
        self.ring = ring
    }

    package func run() async {
        // Shutdown cancels the sleep, so stopping never waits out the interval.
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await ring.reloadReportingFailure()
            }
        }
    }
}
