import Dispatch
import Foundation
import XCTest
@testable import RPCServer

/// `ReplyBurst`: replies settled on one thread inside a burst are held and leave together at its
/// end; nested bursts join the outer one; other threads' replies are not held. The output is a temporary file (which direct writes may
/// always use), read back after each step; `writer.queue.sync {}` lets any scheduled flush run
/// first, so "not written yet" is a fact, not a race.
final class ReplyBurstTests: XCTestCase {
    private var output: TemporaryOutputFile!

    override func setUp() {
        output = TemporaryOutputFile(prefix: "burst")
    }

    override func tearDown() {
        output.remove()
    }

    private func written() throws -> String {
        try output.text()
    }

    private func makeWriter() -> OutputWriter {
        output.makeWriter()
    }

    func test_repliesInABurst_areHeldUntilItEnds_thenWrittenInOrder() throws {
        let writer = makeWriter()
        let result = try ReplyBurst.run {
            writer.submit(Array(#"{"id":1}"#.utf8))
            XCTAssertNil(writer.submitWritingIfIdle(Array(#"{"id":2}"#.utf8)), "held, not handed to the caller")
            writer.queue.sync {}  // a flush, had one been scheduled, would have run by now
            XCTAssertEqual(try written(), "")
            return 42
        }
        XCTAssertEqual(result, 42, "run returns its body's result")
        XCTAssertEqual(try written(), "{\"id\":1}\n{\"id\":2}\n")
        XCTAssertEqual(writer.backlogBytes, 0)
    }

    func test_nestedBursts_joinTheOuterOne_onlyItsEndWrites() throws {
        let writer = makeWriter()
        ReplyBurst.run {
            ReplyBurst.run { writer.submit(Array(#"{"id":1}"#.utf8)) }
            writer.queue.sync {}
            XCTAssertEqual(try? written(), "", "the inner end does not write")
            writer.submit(Array(#"{"id":2}"#.utf8))
        }
        XCTAssertEqual(try written(), "{\"id\":1}\n{\"id\":2}\n")
    }

    func test_anotherThreadsReply_isNotHeldByThisThreadsBurst() throws {
        let writer = makeWriter()
        try ReplyBurst.run {
            let submitted = DispatchSemaphore(value: 0)
            Thread.detachNewThread {  // surely another thread (a `sync` may run its block on this one)
                writer.submit(Array(#"{"id":"other"}"#.utf8))
                submitted.signal()
            }
            submitted.wait()
            writer.queue.sync {}
            XCTAssertEqual(try written(), "{\"id\":\"other\"}\n", "written by the writer queue while the burst is open")
            writer.submit(Array(#"{"id":"mine"}"#.utf8))
            writer.queue.sync {}
            XCTAssertEqual(try written(), "{\"id\":\"other\"}\n")
        }
        XCTAssertEqual(try written(), "{\"id\":\"other\"}\n{\"id\":\"mine\"}\n")
    }

    /// The reader's burst is a `ReplyBurst`: a read lane's burst on the same thread would join it.
    func test_readerBurst_isAReplyBurstOnTheCallingThread() throws {
        let writer = makeWriter()
        writer.beginReaderBurst()
        ReplyBurst.run { writer.submit(Array(#"{"id":1}"#.utf8)) }
        writer.queue.sync {}
        XCTAssertEqual(try written(), "", "still held: the reader's burst is open")
        writer.endReaderBurst(writeIfIdle: true)
        XCTAssertEqual(try written(), "{\"id\":1}\n")
    }
}
