#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // Date
import SharedSupport
#else
import Foundation
#endif

/// `--trace FILE`: appends every message in and out as a JSON line
/// `{"t":<unix seconds>,"dir":"in"|"out","msg":<message>}`. Writes happen on the tracer's own
/// serial queue, off the hot path's queues, in the order `record` was called (callers that need an
/// order, such as the writer, call it under the lock that defines that order). After `close()`,
/// records are dropped. Thread-safe.
package final class Tracer: Sendable {
    private let queue = DispatchQueue(label: "RPCServer.tracer", qos: .utility)
    /// The trace file's descriptor, opened for appending; nil once closed.
    private let descriptor: QueueBound<Int32?>

    /// Opens `path` for appending. A file it creates is mode 0600 whatever the umask: a trace holds
    /// every message verbatim (cart contents, order ids, whatever a client sends). A file that
    /// exists keeps its mode (the operator chose it; `/dev/null` is one). A symbolic link is
    /// refused, never followed: one planted at `path` would send every message to its target.
    /// - Throws: `TraceFileError` with the system's reason when it cannot be opened.
    package init(path: String) throws {
        var fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            // The umask may have taken bits away (never added any): make it exactly 0600.
            _ = fchmod(fd, 0o600)
        } else if errno == EEXIST {
            // Something is there (O_EXCL also refuses a symbolic link, dangling or not): open it
            // as it is, still not through a link.
            fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else {
            throw TraceFileError(reason: errno == ELOOP ? "it is a symbolic link, which a trace never follows" : String(cString: strerror(errno)))
        }
        descriptor = QueueBound(fd, queue: queue)
    }

    /// Why a trace file could not be opened (the system's words, e.g. "Permission denied").
    package struct TraceFileError: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    /// Records one message body. A body that is not valid JSON is recorded as a string. Any thread;
    /// cheap for the caller: it copies the body and hands it to the tracer's queue.
    package func record(direction: String, body: some Collection<UInt8>) {
        let bytes = Array(body)
        let time = Date().timeIntervalSince1970
        queue.async { [self] in writeOnTracerQueue(direction: direction, bytes: bytes, time: time) }
    }

    /// Waits for queued records to be written. Any thread but the tracer's queue.
    package func flush() {
        queue.sync { [self] in
            if let fd = descriptor.value { _ = fsync(fd) }
        }
    }

    /// Writes what is queued, syncs it to disk and closes the file; later records are dropped.
    /// Any thread but the tracer's queue.
    package func close() {
        queue.sync { [self] in
            guard let fd = descriptor.value else { return }
            _ = fsync(fd)
            _ = closeFileDescriptor(fd)
            descriptor.value = nil
        }
    }

    private func writeOnTracerQueue(direction: String, bytes: [UInt8], time: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let fd = descriptor.value else { return }
        var line = Array("{\"t\":\(Self.secondsWithMicroseconds(time)),\"dir\":\"\(direction)\",\"msg\":".utf8)
        if (try? JSONParser.parse(bytes)) != nil {
            line.append(contentsOf: bytes)
        } else {
            JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), into: &line)
        }
        line.append(contentsOf: Array("}\n".utf8))
        // A trace is a diagnostic: a failed write is dropped, never an error of the session.
        try? FileDescriptorIO.writeAll(fd, line)
    }

    /// `time` (seconds since 1970) with six decimals, as `%.6f` prints it (e.g. 1764038400.000125).
    static func secondsWithMicroseconds(_ time: Double) -> String {
        let micros = Int64((time * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// `close(2)`, out of `Tracer`'s scope, where `close` names its own method.
private func closeFileDescriptor(_ fd: Int32) -> Int32 { close(fd) }
