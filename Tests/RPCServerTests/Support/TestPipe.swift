#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// A pipe for output tests, which the test fills (nobody reads until the test does) and then reads
/// back. Used from the test's thread only.
final class TestPipe {
    let readEnd: Int32
    let writeEnd: Int32
    let capacity: Int
    let pageSize = Int(getpagesize())

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw XCTSkip("cannot create a pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
        capacity = Int(fcntl(ends[1], 1032))  // F_GETPIPE_SZ
        XCTAssertGreaterThan(capacity, 4 * pageSize)
    }

    /// Writes bytes nobody reads yet, in one write, so that `free` bytes are left: the kernel fills
    /// a pipe in page slots, so with a multiple of the page size exactly that many slots are free.
    /// Returns what was written.
    @discardableResult
    func fill(leavingFree free: Int) -> [UInt8] {
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: capacity - free)
        XCTAssertEqual(filler.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }, filler.count)
        return filler
    }

    /// Reads until `count` bytes have arrived (or the pipe fails) and returns them.
    func read(count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            let got = Glibc.read(readEnd, &chunk, chunk.count)
            guard got > 0 else {
                XCTFail("pipe read failed")
                break
            }
            received += chunk[..<got]
        }
        return received
    }

    func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
