import Dispatch
import Foundation
import XCTest
@testable import RPCServer
import SharedSupport

/// Deadlines that pass together are settled as `ReplyBurst`s of at most
/// `DeadlineScheduler.expiriesPerBurst`: the replies of a run leave together when it ends, not one
/// writer wake-up each. The output is a temporary file (which the end of a burst writes at once);
/// each expiry counts the lines already written before it submits its own reply.
final class DeadlineExpiryBurstTests: XCTestCase {
    func test_deadlinesPassingTogether_settleInBurstsOfAtMostExpiriesPerBurst() throws {
        let output = TemporaryOutputFile(prefix: "expiry")
        defer { output.remove() }
        let writer = output.makeWriter()
        let linesWritten: @Sendable () -> Int = {
            writer.queue.sync {}  // a flush, had one been scheduled, would have run by now
            return ((try? output.text()) ?? "").split(separator: "\n").count
        }

        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let count = 2 * DeadlineScheduler.expiriesPerBurst + 22
        let seenBefore = Locked<[Int]>([])
        let inBurst = Locked<[Bool]>([])
        let done = expectation(description: "all passed")
        done.expectedFulfillmentCount = count
        let expiries = (0..<count).map { index in
            DeadlineSchedulerTests.Box(inMilliseconds: 1) {
                seenBefore.withLock { $0.append(linesWritten()) }
                inBurst.withLock { $0.append(ThreadBurst.open != nil) }
                writer.submit(Array(#"{"id":\#(index)}"#.utf8))
                done.fulfill()
            }
        }
        // Holding the timer queue until every deadline is past: they all pass in one firing.
        queue.sync {
            for expiry in expiries { scheduler.add(expiry) }
            usleep(20_000)
        }
        wait(for: [done], timeout: 10)
        queue.sync {}

        let perBurst = DeadlineScheduler.expiriesPerBurst
        XCTAssertEqual(seenBefore.withLock { $0 }, (0..<count).map { $0 / perBurst * perBurst },
                       "each run's replies are written when it ends, before the next run starts")
        XCTAssertEqual(inBurst.withLock { $0 }, Array(repeating: true, count: count))
        let ids = try output.text().split(separator: "\n")
        XCTAssertEqual(ids.count, count)
        XCTAssertEqual(Set(ids).count, count, "each reply once")
        XCTAssertEqual(writer.backlogBytes, 0)
    }
}
