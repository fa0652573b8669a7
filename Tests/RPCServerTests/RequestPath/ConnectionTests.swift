import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// The connection driven from memory (no pipes): back-pressure and end of input.
final class ConnectionTests: XCTestCase {
    final class MemoryOutput: ByteOutput {
        let bytes = Locked<[UInt8]>([])
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes.withLock { $0.append(contentsOf: buffer) } }
        var lines: [String] { String(decoding: bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init) }
    }

    private func connection(maxInflight: Int, log: HandlerLog) -> (RPCConnection, MemoryOutput) {
        var configuration = EngineConfiguration()
        configuration.maxInflight = maxInflight
        let engine = RPCEngine(registry: testRegistry(log: log), configuration: configuration)
        let output = MemoryOutput()
        let writer = OutputWriter(output: output) { XCTFail("output closed") }
        return (RPCConnection(engine: engine, writer: writer, framing: nil), output)
    }

    private func feed(_ connection: RPCConnection, _ text: String) {
        connection.engine.readerQueue.sync {
            Array(text.utf8).withUnsafeBytes { connection.receiveOnReaderQueue($0) }
        }
    }

    func test_atMaxInflight_stopsTakingFrames_andResumesOnceCallsFinish() {
        let log = HandlerLog()
        let (connection, output) = connection(maxInflight: 4, log: log)
        let resumed = expectation(description: "wants input again")
        connection.engine.readerQueue.sync { connection.onWantsInput { resumed.fulfill() } }
        // Calls that never finish by themselves: nothing changes until the test ends them.
        feed(connection, (0..<40).map { String(decoding: request($0, "wait", ["ms": 600_000]), as: UTF8.self) + "\n" }.joined())
        XCTAssertEqual(connection.engine.inflightCount, 4, "only maxInflight calls were started")
        connection.engine.readerQueue.sync { XCTAssertFalse(connection.wantsInput) }
        // Ending the calls in flight lets the buffered frames in, four at a time.
        // The bound is on calls in flight (a call ends with its reply): an aborted call's handler
        // may still be winding down when the next call starts, so the handlers running at once
        // are not what is bounded.
        var peakInflight = 0
        for _ in 0..<20_000 where output.lines.count < 40 {  // bounded: a broken resume fails, never hangs
            connection.engine.abortAllInflight()
            connection.engine.readerQueue.sync { peakInflight = max(peakInflight, connection.engine.inflightCount) }
            usleep(1000)
        }
        XCTAssertEqual(output.lines.count, 40)
        wait(for: [resumed], timeout: 30)
        XCTAssertLessThanOrEqual(peakInflight, 4)
        XCTAssertEqual(Set(output.lines.compactMap { try? JSONParser.parse(Array($0.utf8))["id"]?.doubleValue }).count, 40)
    }

    func test_endOfInput_finishesOnlyAfterEveryReplyIsWritten() {
        let (connection, output) = connection(maxInflight: 100, log: HandlerLog())
        let finished = expectation(description: "finished")
        connection.engine.readerQueue.sync { connection.onFinished { finished.fulfill() } }
        feed(connection, String(decoding: request(1, "wait", ["ms": 100]), as: UTF8.self) + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        connection.engine.readerQueue.sync { connection.endOfInputOnReaderQueue() }
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(output.lines.count, 2, "the unterminated last line was answered too, and the slow call before finishing")
    }
}
