import Foundation
import LatchkeyDomain

/// Sends mail through an SMTP relay with libcurl.
///
/// `curl_easy_perform` blocks, so it runs neither on an event loop nor on the cooperative pool, and not on
/// `NIOThreadPool.singleton` either, whose few threads the rest of the server needs. Instead `settings.workers`
/// dedicated threads each own one curl handle for their whole life. Because a handle keeps its connection open,
/// consecutive messages on a worker reuse one SMTP session; `deliver` only queues the message and suspends until a
/// worker has sent it.
///
/// The class is `Sendable` without `@unchecked`: its only stored property is the lock-protected queue, and the
/// non-`Sendable` curl handles never leave the threads that made them.
///
/// Call `shutdown()` when the server stops; dropping the last reference also stops the workers, without waiting.
package final class CurlSMTPTransport: MailTransport {
    private let queue: SMTPJobQueue

    /// Validates `settings`, checks that curl accepts every option, and starts the worker threads.
    ///
    /// Throws `SMTPSettings.InvalidSettings` for settings that cannot work, or `MailDeliveryError` if curl refuses an
    /// option (for instance a libcurl built without TLS). Nothing is sent and no connection is opened yet.
    package init(settings: SMTPSettings) throws {
        try settings.validate()
        _ = try CurlSMTPHandle(settings: settings)
        let queue = SMTPJobQueue(workers: settings.workers)
        self.queue = queue
        for index in 0..<settings.workers {
            let thread = Thread { Self.runWorker(queue: queue, settings: settings) }
            thread.name = "latchkey-smtp-\(index)"
            thread.start()
        }
    }

    deinit {
        queue.close()
    }

    /// Queues `message` for the next free worker and returns once the relay accepted it.
    ///
    /// Throws `MailDeliveryError` when it was not accepted (see `isPermanent`), or `CancellationError` when the task
    /// was cancelled before a worker took the message; a message already being sent is not interrupted.
    package func deliver(_ message: [UInt8], to recipient: EmailAddress, id: Int64) async throws {
        let queue = queue
        let jobID = queue.makeJobID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.enqueue(SMTPJobQueue.Job(id: jobID, message: message, recipient: recipient, continuation: continuation))
            }
        } onCancel: {
            queue.cancel(jobID)
        }
    }

    /// Stops accepting messages and fails those not yet taken by a worker; returns without waiting.
    package func close() {
        queue.close()
    }

    /// Closes the transport and waits until every worker has finished its current message and closed its connection.
    package func shutdown() async {
        queue.close()
        await queue.waitForWorkers()
    }

    /// The body of one worker thread: take a job, send it on this thread's handle, resume the waiting `deliver`.
    ///
    /// The handle is made on first use, so a worker that never gets a message never opens anything. It is kept after
    /// a failure: curl itself drops a connection that a failure left unusable.
    private static func runWorker(queue: SMTPJobQueue, settings: SMTPSettings) {
        var handle: CurlSMTPHandle?
        while let job = queue.next() {
            do {
                let current = try handle ?? CurlSMTPHandle(settings: settings)
                handle = current
                try current.send(job.message, to: job.recipient)
                job.continuation.resume()
            } catch {
                job.continuation.resume(throwing: error)
            }
        }
        handle = nil
        queue.workerDidExit()
    }
}
