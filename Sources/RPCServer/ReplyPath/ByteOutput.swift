import SharedSupport
/// Where the protocol stream's bytes go: a small protocol so tests can swap the real stdout for
/// memory. `write` is called only from the writer queue and must write every byte or throw.
/// (`FileDescriptorOutput` alone is also written from the thread that produced a reply while the
/// writer is idle, one writer at a time and in order; see `OutputWriter`.)
package protocol ByteOutput: Sendable {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A file descriptor (the duplicate of the real stdout, normally). Tolerates O_NONBLOCK.
package struct FileDescriptorOutput: ByteOutput {
    package let fd: Int32
    package init(fd: Int32) { self.fd = fd }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try FileDescriptorIO.writeAll(fd, bytes)
    }
}
