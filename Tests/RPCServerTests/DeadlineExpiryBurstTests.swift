import Dispatch
import Foundation
import XCTest
@testable import RPCServer

/// Deadlines that pass together are settled as `ReplyBurst`s of at most
/// `DeadlineScheduler.expiriesPerBurst`: the replies of a run leave together when it ends, not one
/// writer wake-up each. The output is a temporary file (which the end of a burst writes at once);
/// each expiry counts the lines already written before it submits its own reply.
final class DeadlineExpiryBurstTests: XCTestCase {
    final class Expiry: DeadlineExpirable, @unchecked Sendable {
        let deadlineNanos: UInt64
        var deadlineSlot = -1
        let onPass: @Sendable () -> Void

        init(deadlineNanos: UInt64, onPass: @escaping @Sendable () -> Void) {
            self.deadlineNanos = deadlineNanos
            self.onPass = onPass
        }

        func deadlinePassed() { onPass() }
    }

    func test_deadlinesPassingTogether_settleInBurstsOfAtMostExpiriesPerBurst() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("expiry-\(UUID().uuidString)").path
        let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        defer {
            close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
        let writer = OutputWriter(output: FileDescriptorOutput(fd: fd)) { XCTFail("output closed") }
        let linesWritten: @Sendable () -> Int = {
            writer.queue.sync {}  // a flush, had one been scheduled, would have run by now
            return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let count = 2 * DeadlineScheduler.expiriesPerBurst + 22
        let seenBefore = Locked<[Int]>([])
        let inBurst = Locked<[Bool]>([])
        let done = expectation(description: "all passed")
        done.expectedFulfillmentCount = count
        let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000
        let expiries = (0..<count).map { index in
            Expiry(deadlineNanos: deadline) {
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
        let ids = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(ids.count, count)
        XCTAssertEqual(Set(ids).count, count, "each reply once")
        XCTAssertEqual(writer.backlogBytes, 0)
    }
}
