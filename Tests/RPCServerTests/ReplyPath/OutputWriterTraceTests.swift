import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import RPCServer
import SharedSupport

/// The trace records replies in the order they reach the wire.
final class OutputWriterTraceTests: XCTestCase {
    final class MemoryOutput: ByteOutput {
        let bytes = Locked<[UInt8]>([])
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes.withLock { $0.append(contentsOf: buffer) } }
    }

    func test_concurrentSubmits_traceOutOrder_equalsWireOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-order-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tracer = try Tracer(path: path)
        let output = MemoryOutput()
        let writer = OutputWriter(output: output, tracer: tracer) { XCTFail("output closed") }
        writer.setFraming(.ndjson)
        let threads = 8
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                writer.submit(Array(#"{"jsonrpc":"2.0","id":"\#(thread)-\#(index)","result":{}}"#.utf8))
            }
        }
        writer.queue.sync { writer.flushOnWriterQueue() }
        tracer.flush()

        let wire = String(decoding: output.bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(Self.id)
        let traceLines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let traced = traceLines.filter { $0.contains(#""dir":"out""#) }.map(Self.id)
        XCTAssertEqual(wire.count, threads * perThread)
        XCTAssertEqual(traced.count, threads * perThread)
        let firstDifference = zip(wire, traced).enumerated().first { $0.element.0 != $0.element.1 }
        XCTAssertNil(firstDifference, "trace order differs from wire order at line \(firstDifference?.offset ?? -1)")
    }

    /// The `"id":"…"` member of a reply or trace line.
    private static func id(_ line: Substring) -> String {
        guard let start = line.range(of: #""id":""#) else { return "" }
        let rest = line[start.upperBound...]
        return String(rest.prefix { $0 != "\"" })
    }
}
