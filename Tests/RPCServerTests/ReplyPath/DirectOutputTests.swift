import XCTest
@testable import RPCServer

/// What a thread that must not wait on the client may write to the output: a pipe is written with
/// `RWF_NOWAIT`, which takes what fits and never blocks; without it (a kernel that refuses the
/// flag for pipes), a write is tried only when `FIONREAD` shows room; a regular file always.
final class DirectOutputTests: XCTestCase {
    func test_pipe_writeTakesWhatFits_andNeverBlocks() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let direct = try XCTUnwrap(DirectOutput(fd: pipe.writeEnd))
        guard direct.writesWithoutWaiting else { throw XCTSkip("this kernel or C library has no pwritev2(RWF_NOWAIT)") }
        let filler = pipe.fill(leavingFree: pipe.pageSize)
        XCTAssertTrue(direct.mayTake(3 * pipe.pageSize), "a write that cannot block is always worth trying")

        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 3 * pipe.pageSize)
        let first = try XCTUnwrap(bytes.withUnsafeBytes { direct.write($0) })
        XCTAssertGreaterThan(first, 0, "one page slot was free")
        XCTAssertLessThan(first, bytes.count, "the pipe cannot take three pages")
        if direct.writesWithoutWaiting {  // still: a partial write is no refusal
            XCTAssertEqual(bytes.withUnsafeBytes { direct.write($0) }, 0, "a full pipe takes nothing, at once")
        }
        XCTAssertEqual(pipe.read(count: filler.count + first), filler + bytes[..<first])
    }

    func test_pipeWithoutNoWaitWrites_isTriedOnlyWhenItHasRoom() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let direct = try XCTUnwrap(DirectOutput(fd: pipe.writeEnd, writesWithoutWaiting: false))
        XCTAssertFalse(direct.writesWithoutWaiting)
        XCTAssertTrue(direct.mayTake(100))
        pipe.fill(leavingFree: 100)
        XCTAssertFalse(direct.mayTake(100), "less than the bytes plus two pages of slack")
    }

    func test_closedPipe_failsTheWrite() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let direct = try XCTUnwrap(DirectOutput(fd: pipe.writeEnd))
        signal(SIGPIPE, SIG_IGN)
        close(pipe.readEnd)
        XCTAssertNil(Array("x".utf8).withUnsafeBytes { direct.write($0) }, "EPIPE: the reader went away")
    }

    func test_regularFile_alwaysTakesTheWholeWrite() throws {
        let output = TemporaryOutputFile(prefix: "direct-output")
        defer { output.remove() }
        let direct = try XCTUnwrap(DirectOutput(fd: output.fd))
        XCTAssertTrue(direct.mayTake(1 << 20))
        XCTAssertEqual(Array("{}\n".utf8).withUnsafeBytes { direct.write($0) }, 3)
        XCTAssertEqual(try output.text(), "{}\n")
    }
}
