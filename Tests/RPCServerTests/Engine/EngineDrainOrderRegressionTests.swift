import Dispatch
import Foundation
import XCTest
@testable import RPCServer
import SharedSupport

/// Regression for a FuzzEngine find (FuzzTesting/Corpus/FuzzEngine/regression-drain-before-batch-reply):
/// `notifyWhenDrained` promises that every reply was handed on before a drain waiter runs (the
/// stdio transport flushes and finishes on it at end of input). A batch element's call leaves the
/// in-flight table under the lock but fills its batch slot (and so sends the batch's array) only
/// after the lock; if another call settles in that gap and empties the table, the drain waiter runs
/// before the batch reply exists, and at end of input the batch reply is lost.
///
/// The gap was a few instructions wide, so this test races a one-element batch against a single
/// request many times; before the fix (an open batch now counts as in flight) it failed in 28 to
/// 53 of 3000 rounds on every run; it cannot fail on correct code.
final class EngineDrainOrderRegressionTests: XCTestCase {
    func test_notifyWhenDrained_batchAndSingleSettlingTogether_runsAfterBothReplies() throws {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let replies = DispatchQueue(label: "EngineDrainOrderRegressionTests.replies")
        let batch = Array(#"[{"jsonrpc":"2.0","id":"a","method":"echo","params":{}}]"#.utf8)
        let single = Array(#"{"jsonrpc":"2.0","id":"b","method":"echo","params":{}}"#.utf8)
        let received = Locked(0)
        var early = 0
        for _ in 0..<3_000 {
            received.withLock { $0 = 0 }
            let drained = DispatchSemaphore(value: 0)
            let atDrain = Locked(-1)
            engine.submit(batch, callbackQueue: replies) { _ in received.withLock { $0 += 1 } }
            engine.submit(single, callbackQueue: replies) { _ in received.withLock { $0 += 1 } }
            engine.readerQueue.async {
                engine.notifyWhenDrained {
                    replies.async {
                        atDrain.withLock { $0 = received.withLock { $0 } }
                        drained.signal()
                    }
                }
            }
            XCTAssertEqual(drained.wait(timeout: .now() + 10), .success, "hang guard: the engine never drained")
            if atDrain.withLock({ $0 }) != 2 { early += 1 }
            // Let a late batch reply land before the next round counts afresh.
            replies.sync { }
            let giveUp = DispatchTime.now() + .seconds(10)
            while received.withLock({ $0 }) < 2, DispatchTime.now() < giveUp { usleep(100) }
            XCTAssertEqual(received.withLock { $0 }, 2, "a reply never arrived")
        }
        XCTAssertEqual(early, 0, "the drain waiter ran before every reply was handed on, in \(early) of 3000 rounds")
    }
}
