#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Protects the protocol stream from stray output: the stream goes to a duplicate of the original
/// stdout, and descriptor 1 is pointed at stderr, so a `print` anywhere in the process lands in
/// the log instead of corrupting a frame. Also ignores SIGPIPE, so a closed stdout is an EPIPE
/// write error (handled by ending cleanly) rather than a killed process. Call once, at start-up,
/// before any other thread writes to stdout.
package enum StdioProtection {
    /// Returns the descriptor to write protocol frames to.
    package static func protectStdout() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let protocolFD = dup(STDOUT_FILENO)
        guard protocolFD >= 0 else {
            Log.warn("dup(stdout) failed; writing the protocol to fd 1 unprotected")
            return STDOUT_FILENO
        }
        _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
        fflush(nil)  // anything buffered for the old stdout goes out first
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolFD
    }
}
