import SharedSupport

/// Where a file writer puts its bytes: a file descriptor, or memory for tests. Writers hand it
/// whole buffers (64 KiB by default), so the cost per call does not matter.
public protocol ByteSink {
    /// Writes every byte of `bytes`, or throws.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError)
}

/// Writing failed: the reader went away (EPIPE) or the descriptor is unusable.
public struct ByteSinkError: Error, Equatable, Sendable {
    public let errno: Int32

    public init(errno: Int32) { self.errno = errno }
}

/// Writes to a file descriptor (a file, a pipe, stdout), retrying short writes, EINTR and EAGAIN.
/// Does not close it. One thread.
public struct FileDescriptorSink: ByteSink {
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError) {
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
public struct MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError) {
        self.bytes.append(contentsOf: bytes)
    }
}
