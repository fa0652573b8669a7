import SharedSupport

/// Where a file writer puts its bytes: a file descriptor, or memory for tests. Writers hand it
/// whole buffers (64 KiB by default), so the cost per call does not matter.
package protocol ByteSink {
    /// Writes every byte of `bytes`, or throws.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError)
}

/// Writing failed: the reader went away (EPIPE) or the descriptor is unusable.
package struct ByteSinkError: Error, Equatable, Sendable {
    package let errno: Int32

    package init(errno: Int32) { self.errno = errno }
}

/// Writes to a file descriptor (a file, a pipe, stdout), retrying short writes, EINTR and EAGAIN.
/// Does not close it. One thread.
package struct FileDescriptorSink: ByteSink {
    package let fileDescriptor: Int32

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError) {
        do {
            try FileDescriptorIO.writeAll(fileDescriptor, bytes)
        } catch {
            switch error {
            case .closed(let number): throw ByteSinkError(errno: number)
            }
        }
    }
}

/// Collects everything written, for tests. A value type: read `bytes` from the writer's `sink`.
package struct MemorySink: ByteSink {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError) {
        self.bytes.append(contentsOf: bytes)
    }
}
