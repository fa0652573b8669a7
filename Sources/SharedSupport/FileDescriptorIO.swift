#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-buffer writes to a file descriptor that may be in non-blocking mode (DispatchIO puts
/// stdin in O_NONBLOCK, and when stdin, stdout and stderr share one open file description, such as
/// a terminal, so are they): EAGAIN waits in `poll` for writability instead of failing or spinning.
package enum FileDescriptorIO {
    package enum WriteError: Error, Equatable {
        /// The reader went away (EPIPE) or the descriptor is unusable.
        case closed(errno: Int32)
    }

    /// Writes every byte, retrying short writes, EINTR and EAGAIN.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(WriteError) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, pointer, remaining)
            if written > 0 {
                pointer += written
                remaining -= written
                continue
            }
            let error = errno
            switch error {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, -1)
            default:
                throw .closed(errno: error)
            }
        }
    }

    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(WriteError) {
        let failure: WriteError? = bytes.withUnsafeBytes { raw in
            do throws(WriteError) {
                try writeAll(fd, raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
