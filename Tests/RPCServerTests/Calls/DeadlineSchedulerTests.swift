import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

final class DeadlineSchedulerTests: XCTestCase {
    /// A deadline that records when and how often it expired.
    final class Box: DeadlineItem, @unchecked Sendable {
        let fired = Locked<[UInt64]>([])
        let onFire: @Sendable () -> Void

        /// A deadline `ms` after `base` (default: now).
        init(inMilliseconds ms: Int, after base: UInt64 = DispatchTime.now().uptimeNanoseconds, onFire: @escaping @Sendable () -> Void = {}) {
            self.onFire = onFire
            super.init(deadlineNanos: base + UInt64(ms) * 1_000_000)
        }

        override func deadlinePassed() {
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

    /// A removed deadline leaves a tombstone, not the item: the item is released at once, and the
    /// tombstones never outnumber the live entries by more than `tombstoneSlack`.
    func test_removing_releasesTheItemAtOnce_andTombstonesStayBounded() {
        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        weak var removedBox: Box?
        let kept = (0..<10).map { Box(inMilliseconds: 60_000 + $0) }
        do {
            let removed = (0..<1_000).map { Box(inMilliseconds: 30_000 + $0) }
            removedBox = removed[0]
            for (index, box) in removed.enumerated() {
                scheduler.add(box)
                if index < kept.count { scheduler.add(kept[index]) }
            }
            for box in removed.shuffled() {
                scheduler.remove(box)
                XCTAssertLessThanOrEqual(scheduler.entryCount, 2 * scheduler.count + DeadlineScheduler.tombstoneSlack + 1)
            }
        }
        XCTAssertNil(removedBox, "the scheduler keeps no removed item")
        XCTAssertEqual(scheduler.count, kept.count)
        for box in kept { scheduler.remove(box) }
        XCTAssertEqual(scheduler.count, 0)
    }

    /// Tombstones left by removals, at the top of the heap and below it, neither fire nor delay
    /// the deadlines around them.
    func test_deadlinesBesideRemovedOnes_fireOnce_inDeadlineOrder() {
        let queue = DispatchQueue(label: "test.timer")
        let scheduler = DeadlineScheduler(queue: queue)
        let order = Locked<[Int]>([])
        let done = expectation(description: "kept ones fired")
        done.expectedFulfillmentCount = 25
        let boxes = (0..<50).map { index in
            Box(inMilliseconds: 20 + index * 2) {
                order.withLock { $0.append(index) }
                done.fulfill()
            }
        }
        queue.sync {
            for box in boxes.reversed() { scheduler.add(box) }
            for (index, box) in boxes.enumerated() where index % 2 == 0 { scheduler.remove(box) }
        }
        wait(for: [done], timeout: 10)
        queue.sync {}
        XCTAssertEqual(order.withLock { $0 }, Array(stride(from: 1, to: 50, by: 2)))
        XCTAssertTrue(boxes.enumerated().allSatisfy { $0.element.fireCount == ($0.offset % 2) })
        XCTAssertEqual(scheduler.count, 0)
        XCTAssertEqual(scheduler.entryCount, 0, "the timer passed every tombstone")
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
