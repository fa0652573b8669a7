import Dispatch
import Foundation
import XCTest
@testable import RPCServer
import SharedSupport

/// The writer's idle fast path: replies written by the thread that produced them (a settled call,
/// the end of a reader burst) still go out whole, once each, in the trace's order, alongside the
/// batching writer queue. The output is a real descriptor (a temporary file, which direct writes
/// may always use).
final class OutputWriterDirectWriteTests: XCTestCase {
    private var output: TemporaryOutputFile!

    override func setUp() {
        output = TemporaryOutputFile(prefix: "direct")
    }

    override func tearDown() {
        output.remove()
    }

    func test_concurrentDirectAndQueuedSubmits_everyFrameWholeOnce_inTraceOrder() throws {
        let tracePath = output.path + ".trace"
        defer { try? FileManager.default.removeItem(atPath: tracePath) }
        let tracer = try Tracer(path: tracePath)
        let writer = output.makeWriter(tracer: tracer)
        writer.setFraming(.ndjson)
        let threads = 8
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let body = Array(#"{"jsonrpc":"2.0","id":"\#(thread)-\#(index)","result":{}}"#.utf8)
                if index % 3 == 0 {
                    writer.submit(body)
                } else {
                    writer.submitWritingIfIdle(body)?.perform()
                }
            }
        }
        writer.queue.sync { writer.flushOnWriterQueue() }
        tracer.flush()

        let wire = try output.text().split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(wire.last, "", "the output ends with a whole frame")
        let frames = wire.dropLast()
        XCTAssertEqual(frames.count, threads * perThread)
        for frame in frames {
            XCTAssertNoThrow(try JSONParser.parse(Array(frame.utf8)), "not a whole frame: \(frame)")
        }
        XCTAssertEqual(Set(frames.map(Self.id)).count, threads * perThread, "every frame once")
        let traced = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(#""dir":"out""#) }.map(Self.id)
        XCTAssertEqual(frames.map(Self.id), traced)
    }

    func test_idleWriter_submitWritingIfIdle_handsTheFrameToTheCaller() throws {
        let writer = output.makeWriter()
        let direct = try XCTUnwrap(writer.submitWritingIfIdle(Array(#"{"id":1}"#.utf8)))
        XCTAssertEqual(writer.backlogBytes, 9, "taken, not yet written")
        // While the caller owns the output, other replies only queue behind it.
        XCTAssertNil(writer.submitWritingIfIdle(Array(#"{"id":2}"#.utf8)))
        direct.perform()
        writer.queue.sync { writer.flushOnWriterQueue() }
        XCTAssertEqual(try output.text(), "{\"id\":1}\n{\"id\":2}\n")
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func test_readerBurst_holdsItsRepliesUntilItEnds_thenWritesThemTogether() throws {
        let writer = output.makeWriter()
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":1}"#.utf8))
        writer.submit(Array(#"{"id":2}"#.utf8))
        writer.queue.sync {}  // a flush, had one been scheduled, would have run by now
        XCTAssertEqual(try output.text(), "")
        XCTAssertEqual(writer.backlogBytes, 18)
        writer.endReaderBurst(writeIfIdle: true)
        XCTAssertEqual(try output.text(), "{\"id\":1}\n{\"id\":2}\n")
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func test_readerBurst_endedWithoutWriteIfIdle_isWrittenByTheWriterQueue() throws {
        let writer = output.makeWriter()
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":1}"#.utf8))
        writer.endReaderBurst(writeIfIdle: false)
        writer.queue.sync {}
        XCTAssertEqual(try output.text(), "{\"id\":1}\n")
    }

    func test_pipeWithoutRoom_directWriteNeverBlocks_theWriterQueueWritesWhatItLeftOnceRead() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        // Nobody reads yet; leave less than a page free.
        let filler = pipe.fill(leavingFree: 100)
        let writer = OutputWriter(output: FileDescriptorOutput(fd: pipe.writeEnd)) { XCTFail("output closed") }
        // Returns at once, whatever the pipe took (a blocking write here would hang the test); the
        // writer queue writes the rest once the pipe is read.
        writer.submitWritingIfIdle(Array(#"{"id":1}"#.utf8))?.perform()
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":2}"#.utf8))
        writer.endReaderBurst(writeIfIdle: true)

        XCTAssertEqual(pipe.read(count: filler.count + 18), filler + Array("{\"id\":1}\n{\"id\":2}\n".utf8))
        writer.queue.sync {}
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    /// A direct write that the pipe takes only part of: the writer queue finishes that frame
    /// before it writes the one submitted after it, so the frames stay whole and in order.
    func test_pipeTakingPartOfAFrame_theWriterQueueFinishesItBeforeTheNextFrame() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let filler = pipe.fill(leavingFree: pipe.pageSize)  // one page slot free
        let writer = OutputWriter(output: FileDescriptorOutput(fd: pipe.writeEnd)) { XCTFail("output closed") }
        let big = Array(#"{"id":1,"result":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 3 * pipe.pageSize) + Array(#""}"#.utf8)
        let direct = try XCTUnwrap(writer.submitWritingIfIdle(big), "an idle writer hands the frame to its caller")
        writer.submit(Array(#"{"id":2}"#.utf8))  // appended while the caller owns the output
        direct.perform()  // writes what fits and returns
        XCTAssertGreaterThan(writer.backlogBytes, 0, "the pipe could not take the whole frame")

        let expected = filler + big + Array("\n{\"id\":2}\n".utf8)
        XCTAssertEqual(pipe.read(count: expected.count), expected)
        writer.queue.sync {}
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func test_outputThatIsNotADescriptor_neverWrittenOffTheWriterQueue() {
        let output = QueueCheckingOutput()
        let writer = OutputWriter(output: output) { XCTFail("output closed") }
        output.queue = writer.queue
        XCTAssertNil(writer.submitWritingIfIdle(Array(#"{"id":1}"#.utf8)))
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":2}"#.utf8))
        writer.endReaderBurst(writeIfIdle: true)
        writer.queue.sync { writer.flushOnWriterQueue() }
        XCTAssertEqual(output.bytes.withLock { String(decoding: $0, as: UTF8.self) }, "{\"id\":1}\n{\"id\":2}\n")
    }

    /// An output that checks the `ByteOutput` contract: written on the writer queue only.
    final class QueueCheckingOutput: ByteOutput, @unchecked Sendable {  // `queue` is set once, before any write
        var queue: DispatchQueue?
        let bytes = Locked<[UInt8]>([])
        func write(_ buffer: UnsafeRawBufferPointer) throws {
            if let queue { dispatchPrecondition(condition: .onQueue(queue)) }
            bytes.withLock { $0.append(contentsOf: buffer) }
        }
    }

    /// The `"id":"…"` member of a reply or trace line.
    private static func id(_ line: Substring) -> String {
        guard let start = line.range(of: #""id":""#) else { return "" }
        let rest = line[start.upperBound...]
        return String(rest.prefix { $0 != "\"" })
    }
}

/// `whenFlushed`: the connection's last step runs once every reply before it is written, also when
/// a direct writer owns the output at that moment, which hands the output back without anyone
/// waiting for it.
final class OutputWriterWhenFlushedTests: XCTestCase {
    private var output: TemporaryOutputFile!

    override func setUp() {
        output = TemporaryOutputFile(prefix: "flushed")
    }

    override func tearDown() {
        output.remove()
    }

    /// Waits for `whenFlushed`'s action and returns the output as it was when the action ran.
    private func textWhenFlushed(_ writer: OutputWriter) throws -> String {
        let seen = Locked<String?>(nil)
        let done = expectation(description: "flushed")
        writer.whenFlushed { [output] in
            dispatchPrecondition(condition: .onQueue(writer.queue))
            seen.withLock { $0 = try? output!.text() }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(seen.withLock { $0 })
    }

    func test_idleAndEmpty_runsAtOnce() throws {
        let writer = output.makeWriter()
        XCTAssertEqual(try textWhenFlushed(writer), "")
    }

    func test_whileADirectWriterOwnsTheOutput_runsAfterItsWriteAndWhatQueuedBehindIt() throws {
        let writer = output.makeWriter()
        let direct = try XCTUnwrap(writer.submitWritingIfIdle(Array(#"{"id":1}"#.utf8)))
        writer.submit(Array(#"{"id":2}"#.utf8))
        let seen = Locked<String?>(nil)
        let done = expectation(description: "flushed")
        writer.whenFlushed { [output] in
            seen.withLock { $0 = try? output!.text() }
            done.fulfill()
        }
        writer.queue.sync {}
        XCTAssertNil(seen.withLock { $0 }, "not before the direct writer's write")
        direct.perform()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(seen.withLock { $0 }, "{\"id\":1}\n{\"id\":2}\n")
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func test_repliesAnOpenBurstHolds_areWrittenFirst() throws {
        let writer = output.makeWriter()
        writer.beginReaderBurst()
        writer.submit(Array(#"{"id":1}"#.utf8))
        XCTAssertEqual(try textWhenFlushed(writer), "{\"id\":1}\n")
        writer.endReaderBurst(writeIfIdle: true)
        XCTAssertEqual(try output.text(), "{\"id\":1}\n", "written once")
    }

    func test_flushOnWriterQueue_whileADirectWriterOwnsTheOutput_returnsWithoutWriting() throws {
        let writer = output.makeWriter()
        let direct = try XCTUnwrap(writer.submitWritingIfIdle(Array(#"{"id":1}"#.utf8)))
        writer.submit(Array(#"{"id":2}"#.utf8))
        writer.queue.sync { writer.flushOnWriterQueue() }  // returns: nothing spins on the writer queue
        XCTAssertEqual(try output.text(), "")
        direct.perform()
        XCTAssertEqual(try textWhenFlushed(writer), "{\"id\":1}\n{\"id\":2}\n")
    }
}
