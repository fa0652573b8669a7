#if canImport(Glibc)
import Glibc  // exit, write
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `shop-rpc: message` and a newline to stderr.
func writeToStandardError(_ message: String) {
    writeRawToStandardError("shop-rpc: \(message)\n")
}

/// Writes `text` to stderr as it is (an import's error lines, a progress line).
func writeRawToStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if n > 0 { written += n } else if errno != EINTR { return }
    }
}

/// Writes `shop-rpc: message` to stderr and ends the process with `status` (before the server runs).
func exitWithMessage(_ message: String, status: Int32) -> Never {
    writeToStandardError(message)
    exit(status)
}
