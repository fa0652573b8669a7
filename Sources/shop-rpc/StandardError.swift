#if canImport(Glibc)
import Glibc  // exit, STDERR_FILENO
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SharedSupport  // FileDescriptorIO

/// Writes `shop-rpc: message` and a newline to stderr.
func writeToStandardError(_ message: String) {
    writeRawToStandardError("shop-rpc: \(message)\n")
}

/// Writes `text` to stderr as it is (an import's error lines, a progress line); a stderr nobody
/// reads any more is not an error worth reporting anywhere.
func writeRawToStandardError(_ text: String) {
    try? FileDescriptorIO.writeAll(STDERR_FILENO, Array(text.utf8))
}

/// Writes `shop-rpc: message` to stderr and ends the process with `status` (before the server runs).
func exitWithMessage(_ message: String, status: Int32) -> Never {
    writeToStandardError(message)
    exit(status)
}
