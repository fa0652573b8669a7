#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a file reader gets its bytes: a file descriptor, or bytes in memory for tests. Readers
/// ask for at most their buffer's size at a time, so memory stays bounded by the reader.
public protocol ByteSource {
    /// Reads at most `buffer.count` bytes into `buffer` and returns how many; 0 only at the end of
    /// the input. Blocks until at least one byte or the end is there.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int
}

/// Reading failed (not: the bytes were wrong). `errno` is the system's error number.
public struct ByteSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    public let errno: Int32

    public init(errno: Int32) { self.errno = errno }

    public var description: String { String(cString: strerror(errno)) }
}

/// Reads a file descriptor (a file, a pipe, stdin) with read(2), retrying EINTR and waiting in
/// poll(2) on EAGAIN (stdin may be non-blocking). Does not close the descriptor. One thread.
public struct FileDescriptorSource: ByteSource {
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(fileDescriptor, base, buffer.count)
            #elseif canImport(Glibc)
            let count = Glibc.read(fileDescriptor, base, buffer.count)
            #else
            let count = Musl.read(fileDescriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            let error = errno
            switch error {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
            default:
                throw ByteSourceError(errno: error)
            }
        }
    }
}

/// Bytes in memory, handed out in the chunk sizes given (cycling through them; all at once when
/// there are none), so tests can feed a reader byte by byte or in any chunking.
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let chunkSizes: [Int]
    private var offset = 0
    private var chunkIndex = 0

    /// - Parameter chunkSizes: sizes ≥ 1 of successive reads (each still capped by the reader's buffer).
    public init(_ bytes: [UInt8], chunkSizes: [Int] = []) {
        precondition(chunkSizes.allSatisfy { $0 >= 1 }, "chunk sizes must be at least 1")
        self.bytes = bytes
        self.chunkSizes = chunkSizes
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        var count = min(buffer.count, bytes.count - offset)
        if !chunkSizes.isEmpty {
            count = min(count, chunkSizes[chunkIndex])
            chunkIndex = (chunkIndex + 1) % chunkSizes.count
        }
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
