import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

final class DeadlineSchedulerTests: XCTestCase {
    /// A deadline that records when and how often it expired.
    final class Box: DeadlineExpirable, @unchecked Sendable {
        let deadlineNanos: UInt64
        var deadlineSlot = -1
        let fired = Locked<[UInt64]>([])
        let onFire: @Sendable () -> Void

        /// A deadline `ms` after `base` (default: now).
        init(inMilliseconds ms: Int, after base: UInt64 = DispatchTime.now().uptimeNanoseconds, onFire: @escaping @Sendable () -> Void = {}) {
            deadlineNanos = base + UInt64(ms) * 1_000_000
            self.onFire = onFire
        }

        func deadlinePassed() {
            fired.withLock { $0.append(DispatchTime.now().uptimeNanoseconds) }
            onFire()
        }

        var fireCount: Int { fired.withLock { $0.count } }
    }

    func test_deadlines_fireOnce_inDeadlineOrder_notBeforeTheirTime() {
        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let order = Locked<[Int]>([])
        let done = expectation(description: "all fired")
        done.expectedFulfillmentCount = 50
        // Added out of order: later deadlines first. One base time: a box made a few ms after
        // the previous one (the test thread preempted) still has the deadline its index says.
        let base = DispatchTime.now().uptimeNanoseconds
        let boxes = (0..<50).reversed().map { index in
            Box(inMilliseconds: 20 + index * 2, after: base) {
                order.withLock { $0.append(index) }
                done.fulfill()
            }
        }
        for box in boxes { scheduler.add(box) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, Array(0..<50))
        for box in boxes {
            XCTAssertEqual(box.fireCount, 1)
            XCTAssertGreaterThanOrEqual(box.fired.withLock { $0[0] }, box.deadlineNanos)
        }
        XCTAssertEqual(scheduler.count, 0)
    }

    func test_removedDeadlines_neverFire_andLeaveNothingBehind() {
        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let removed = (0..<10_000).map { Box(inMilliseconds: 1 + $0 % 50) }
        let kept = Box(inMilliseconds: 100)
        // Holding the timer queue: nothing can fire between adding and removing, however slow.
        queue.sync {
            for box in removed { scheduler.add(box) }
            scheduler.add(kept)
            for box in removed.shuffled() { scheduler.remove(box) }
            // Counted while the timer queue is held: `kept` may already be due (under TSan adding
            // 10 000 boxes can take longer than its 100 ms), but it cannot have fired.
            XCTAssertEqual(scheduler.count, 1)
            usleep(60_000)  // every removed deadline is now in the past
        }
        eventually { kept.fireCount == 1 }
        queue.sync {}
        XCTAssertTrue(removed.allSatisfy { $0.fireCount == 0 })
        XCTAssertEqual(scheduler.count, 0)
    }

    func test_anEarlierDeadlineAddedLater_rearmsTheTimer() {
        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let late = Box(inMilliseconds: 60_000)
        scheduler.add(late)
        let early = expectation(description: "early fired")
        scheduler.add(Box(inMilliseconds: 10) { early.fulfill() })
        wait(for: [early], timeout: 10)
        XCTAssertEqual(late.fireCount, 0)
        scheduler.remove(late)
    }
}
