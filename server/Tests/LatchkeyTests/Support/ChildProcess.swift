import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests start (the SMTP sink, openssl, sqlite3), spawned with `posix_spawnp`.
///
/// Foundation's `Process.run()` on Linux over-reads `/proc/self/fd` and now and then crashes the whole test process,
/// the more often the more files are open (swift-corelibs-foundation#5472, Swift 6.3.1); spawning directly avoids it.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The program, for messages.
    let program: String
    /// The write end of the child's standard input, when it has one; closing it is end of input.
    private let input: Mutex<Int32?>
    private let status = Mutex<Int32?>(nil)

    /// Starts `arguments[0]`, found on `PATH` unless it is a path, with standard output to `outputPath` and standard
    /// error to `errorPath` (both discarded unless given).
    init(_ arguments: [String], withInput: Bool = false, outputPath: String = "/dev/null", errorPath: String = "/dev/null") throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if withInput {
            guard pipe(&pipeEnds) == 0 else { throw ChildProcessError(description: "pipe failed: \(errno)") }
            // Close-on-exec, so no child (this one or another test's) keeps the write end open.
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        // The child starts with no signal blocked: the spawning thread is one of Dispatch's, which block them all, and a
        // child that inherited that mask would never see the SIGTERM that stops it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if withInput { close(pipeEnds[0]) }
        guard result == 0 else {
            if withInput { close(pipeEnds[1]) }
            throw ChildProcessError(description: "\(arguments[0]) could not start: \(String(cString: strerror(result)))")
        }
        self.pid = pid
        program = arguments[0]
        input = Mutex(withInput ? pipeEnds[1] : nil)
    }

    deinit {
        closeInput()
    }

    /// Whether the child still runs; reaps it once it has exited.
    var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// Writes `text` to the child's standard input.
    func write(_ text: String) {
        input.withLock { input in
            guard let input else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(input, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Ends the child's standard input.
    func closeInput() {
        input.withLock { input in
            if let open = input { close(open) }
            input = nil
        }
    }

    func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Waits (polling, so no thread blocks) until the child exits, and returns its exit status.
    /// A cancelled wait kills the child instead of polling on: a cancelled sleep returns at once. A child still running
    /// after `limit` (generous: a busy machine is slow, but a hung program must fail its test, not stall the run) is
    /// killed, and the wait throws.
    func exitStatus(within limit: Duration = .seconds(120)) async throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        while isRunning {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                throw ChildProcessError(description: "\(program) did not exit within \(limit)")
            }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                kill(pid, SIGKILL)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let raw = status.withLock { $0 } ?? 0
        return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
}
