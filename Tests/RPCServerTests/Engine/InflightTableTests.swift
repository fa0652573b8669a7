import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// `InflightTable` as a value: every operation from the states that matter (empty, calls in
/// flight, an open batch, waiters queued), and what it returns, with no engine around it.
final class InflightTableTests: XCTestCase {
    /// Owns the test's calls; settling is the table's business here, so it does nothing.
    private final class NoOwner: CallOwner {
        func callSettled(_ call: Call, _ outcome: Result<ResultJSON, RPCError>, sendsReply: Bool, ending: CallEnding) {}
    }

    private let owner = NoOwner()
    private let deadlines = DeadlineScheduler(queue: DispatchQueue(label: "InflightTableTests.timer"))

    private func call(_ id: RequestID?, slot: Int = 0) -> Call {
        Call(id: id, method: "m\(slot)", statsSlot: slot, deadlineMs: 60_000, deadlineMessage: nil, target: .none, replyStyle: .plain,
             progress: nil, deadlines: deadlines, owner: owner)
    }

    /// A waiter that counts its runs (the table never runs one itself: it hands them back).
    private final class Counter: Sendable {
        let runs = Locked(0)
        var waiter: InflightTable.Waiter { { self.runs.withLock { $0 += 1 } } }
    }

    private func run(_ waiters: [InflightTable.Waiter]) { for waiter in waiters { waiter() } }

    // MARK: - register / settle

    func test_register_request_isInUse_countedAndFindable_untilSettled() {
        var table = InflightTable(methodCount: 2, resumeThreshold: 0)
        let first = call(.int(1), slot: 1)
        XCTAssertTrue(table.register(first))
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table.isInUse(.int(1)))
        XCTAssertTrue(table.call(withID: .int(1)) === first)
        XCTAssertEqual(table.stats.methods[1].started, 1)
        XCTAssertTrue(table.settle(first, errorCode: nil, ending: .handler, latencyNanos: 1_000).isEmpty)
        XCTAssertEqual(table.count, 0)
        XCTAssertFalse(table.isInUse(.int(1)))
        XCTAssertNil(table.call(withID: .int(1)))
        XCTAssertEqual(table.stats.methods[1].ok, 1)
        XCTAssertEqual(table.stats.methods[1].inFlight, 0)
    }

    func test_register_sameIDTwice_refusesTheSecond_andKeepsTheFirst() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let first = call(.string("a"))
        XCTAssertTrue(table.register(first))
        XCTAssertFalse(table.register(call(.string("a"))))
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table.call(withID: .string("a")) === first)
        XCTAssertEqual(table.stats.methods[0].started, 1, "the refused call is not counted")
    }

    func test_notifications_areKeptByIdentity_andListedWithRequests() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let one = call(nil), two = call(nil), request = call(.int(7))
        for each in [one, two, request] { XCTAssertTrue(table.register(each)) }
        XCTAssertEqual(table.count, 3)
        XCTAssertEqual(Set(table.calls.map(ObjectIdentifier.init)), Set([one, two, request].map(ObjectIdentifier.init)))
        _ = table.settle(one, errorCode: nil, ending: .handler, latencyNanos: 0)
        XCTAssertEqual(table.count, 2)
        XCTAssertTrue(table.calls.contains { $0 === two })
    }

    func test_settle_aCallWhoseIDNowBelongsToAnother_leavesTheOtherInPlace() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let stranger = call(.int(1))
        XCTAssertTrue(table.register(stranger))
        _ = table.settle(call(.int(1)), errorCode: nil, ending: .handler, latencyNanos: 0)
        XCTAssertTrue(table.call(withID: .int(1)) === stranger)
    }

    func test_settle_countsErrorsByCode_andDeadlinesAndCancelsByEnding() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let calls = (0..<3).map { call(.int(Int64($0))) }
        for each in calls { XCTAssertTrue(table.register(each)) }
        _ = table.settle(calls[0], errorCode: -32001, ending: .deadline, latencyNanos: 0)
        _ = table.settle(calls[1], errorCode: -32800, ending: .clientCancel, latencyNanos: 0)
        _ = table.settle(calls[2], errorCode: 1001, ending: .handler, latencyNanos: 0)
        let stats = table.stats.methods[0]
        XCTAssertEqual(stats.errors, [-32001: 1, -32800: 1, 1001: 1])
        XCTAssertEqual(stats.deadlineExpiries, 1)
        XCTAssertEqual(stats.cancels, 1)
        XCTAssertEqual(stats.ok, 0)
    }

    // MARK: - Batches

    func test_openBatch_reservesFreshIDsOnce_refusesInUseAndRepeatedOnes_andCountsAsInFlight() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        XCTAssertTrue(table.register(call(.int(1))))
        let reserved = table.openBatch(ids: [.int(1), .int(2), .int(2), .string("x")])
        XCTAssertEqual(reserved, [.int(2), .string("x")])
        XCTAssertEqual(table.count, 2, "the call and the open batch")
        XCTAssertTrue(table.isInUse(.int(2)))
        XCTAssertTrue(table.isInUse(.string("x")))
        XCTAssertNil(table.call(withID: .int(2)), "a reserved id is not a call")
    }

    func test_batchElement_settled_keepsItsIDInUse_untilTheBatchCloses() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let reserved = table.openBatch(ids: [.int(5)])
        let element = call(.int(5))
        XCTAssertTrue(table.register(element))
        _ = table.settle(element, errorCode: nil, ending: .handler, latencyNanos: 0)
        XCTAssertTrue(table.isInUse(.int(5)), "the batch's answer for 5 is not sent yet")
        XCTAssertEqual(table.count, 1)
        _ = table.closeBatch(reserved: reserved)
        XCTAssertFalse(table.isInUse(.int(5)))
        XCTAssertEqual(table.count, 0)
    }

    func test_batchOfNotificationsOnly_reservesNothing_butIsInFlightUntilClosed() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let reserved = table.openBatch(ids: [])
        XCTAssertEqual(reserved, [])
        XCTAssertEqual(table.count, 1)
        _ = table.closeBatch(reserved: reserved)
        XCTAssertEqual(table.count, 0)
    }

    // MARK: - Waiters

    func test_waitForDrain_whenEmpty_isReadyAtOnce_andQueuesNothing() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let counter = Counter()
        XCTAssertTrue(table.waitForDrain(counter.waiter))
        let only = call(.int(1))
        XCTAssertTrue(table.register(only))
        XCTAssertTrue(table.settle(only, errorCode: nil, ending: .handler, latencyNanos: 0).isEmpty, "nothing was queued")
    }

    func test_waitForDrain_runsOnlyWhenTheLastCallOrBatchLeaves() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 10)
        let first = call(.int(1)), second = call(nil)
        XCTAssertTrue(table.register(first))
        XCTAssertTrue(table.register(second))
        let reserved = table.openBatch(ids: [.int(2)])
        let counter = Counter()
        XCTAssertFalse(table.waitForDrain(counter.waiter))
        XCTAssertTrue(table.settle(first, errorCode: nil, ending: .handler, latencyNanos: 0).isEmpty)
        XCTAssertTrue(table.settle(second, errorCode: nil, ending: .handler, latencyNanos: 0).isEmpty, "the batch is still open")
        let ready = table.closeBatch(reserved: reserved)
        XCTAssertEqual(ready.count, 1)
        run(ready)
        XCTAssertEqual(counter.runs.withLock { $0 }, 1)
        XCTAssertTrue(table.hasNoWaiterLeft(), "taken once")
    }

    func test_waitForCapacity_atOrBelowTheThreshold_isReadyAtOnce() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 1)
        XCTAssertTrue(table.register(call(.int(1))))
        XCTAssertTrue(table.waitForCapacity(Counter().waiter), "1 in flight, threshold 1")
    }

    func test_waitForCapacity_aboveTheThreshold_runsWhenASettleBringsItDown_once() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 1)
        let calls = (0..<3).map { call(.int(Int64($0))) }
        for each in calls { XCTAssertTrue(table.register(each)) }
        let counter = Counter()
        XCTAssertFalse(table.waitForCapacity(counter.waiter))
        XCTAssertTrue(table.settle(calls[0], errorCode: nil, ending: .handler, latencyNanos: 0).isEmpty, "2 in flight: above 1")
        let ready = table.settle(calls[1], errorCode: nil, ending: .handler, latencyNanos: 0)
        XCTAssertEqual(ready.count, 1)
        run(ready)
        XCTAssertTrue(table.settle(calls[2], errorCode: nil, ending: .handler, latencyNanos: 0).isEmpty, "already taken")
        XCTAssertEqual(counter.runs.withLock { $0 }, 1)
    }

    func test_lastSettle_withBothKindsQueued_returnsCapacityAndDrainWaitersTogether() {
        var table = InflightTable(methodCount: 1, resumeThreshold: 0)
        let only = call(.int(1))
        XCTAssertTrue(table.register(only))
        let capacity = Counter(), drain = Counter()
        XCTAssertFalse(table.waitForCapacity(capacity.waiter))
        XCTAssertFalse(table.waitForDrain(drain.waiter))
        let ready = table.settle(only, errorCode: nil, ending: .handler, latencyNanos: 0)
        XCTAssertEqual(ready.count, 2)
        run(ready)
        XCTAssertEqual(capacity.runs.withLock { $0 }, 1)
        XCTAssertEqual(drain.runs.withLock { $0 }, 1)
    }
}

private extension InflightTable {
    /// Whether opening and closing an empty batch hands back no waiter: every waiter queued before was taken.
    mutating func hasNoWaiterLeft() -> Bool {
        let reserved = openBatch(ids: [])
        return closeBatch(reserved: reserved).isEmpty
    }
}
