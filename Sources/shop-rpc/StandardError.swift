#if canImport(Glibc)
import Glibc  // STDERR_FILENO
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
