import Dispatch
import Foundation
import XCTest
import SharedSupport
@testable import ShopAPI

/// `InventoryAdmissionGate`: at most `limit` run, the rest wait in FIFO order, and a withdrawn
/// waiter is never started.
final class InventoryAdmissionGateTests: XCTestCase {
    /// Records the order pieces of work start in. Thread-safe.
    private final class StartLog: @unchecked Sendable {
        private let lock = NSLock()
        private var started: [Int] = []
        func record(_ index: Int) { lock.withLock { started.append(index) } }
        var order: [Int] { lock.withLock { started } }
    }

    private let startQueue = DispatchQueue(label: "InventoryAdmissionGateTests.start")

    /// Waits until the gate's start queue has run everything handed to it so far.
    private func drainStartQueue() {
        startQueue.sync {}
    }

    func test_admissionGate_underItsLimit_startsAtOnce_andQueuesTheRestInFIFOOrder() {
        let gate = InventoryAdmissionGate(limit: 2, startQueue: startQueue)
        let log = StartLog()
        for index in 0..<5 {
            gate.enter(gate.makeTicket()) { log.record(index) }
        }
        XCTAssertEqual(log.order, [0, 1], "only `limit` start before anything leaves")
        XCTAssertEqual(gate.counts.running, 2)
        XCTAssertEqual(gate.counts.waiting, 3)
        for _ in 0..<3 {
            gate.leave()
            drainStartQueue()
        }
        XCTAssertEqual(log.order, [0, 1, 2, 3, 4])
        XCTAssertEqual(gate.counts.running, 2)
        gate.leave()
        gate.leave()
        XCTAssertEqual(gate.counts.running, 0)
    }

    /// A higher limit starts waiters at once; a lower one lets running work finish and holds the
    /// next waiters back until fewer than the new limit run.
    func test_admissionGate_raisedLimit_startsWaitersAtOnce_loweredLimit_holdsThemUntilFewerRun() {
        let gate = InventoryAdmissionGate(limit: 1, startQueue: startQueue)
        let log = StartLog()
        for index in 0..<6 {
            gate.enter(gate.makeTicket()) { log.record(index) }
        }
        XCTAssertEqual(log.order, [0])
        gate.setLimit(3)
        drainStartQueue()
        XCTAssertEqual(log.order, [0, 1, 2], "two more start as soon as the limit is raised")
        XCTAssertEqual(gate.counts.running, 3)
        gate.setLimit(1)
        XCTAssertEqual(gate.counts.limit, 1)
        gate.leave()
        gate.leave()
        drainStartQueue()
        XCTAssertEqual(log.order, [0, 1, 2], "with 3 running and a limit of 1, leaving starts nobody")
        XCTAssertEqual(gate.counts.running, 1)
        gate.leave()
        drainStartQueue()
        XCTAssertEqual(log.order, [0, 1, 2, 3], "the last one's slot passes to the next waiter")
        XCTAssertEqual(gate.counts.running, 1)
        XCTAssertEqual(gate.counts.waiting, 2)
        gate.setLimit(0)
        XCTAssertEqual(gate.counts.limit, 1, "the limit is at least 1")
    }

    func test_admissionGate_withdrawnWaiter_isNeverStarted_andTheNextOneTakesItsTurn() {
        let gate = InventoryAdmissionGate(limit: 1, startQueue: startQueue)
        let log = StartLog()
        let tickets = (0..<3).map { _ in gate.makeTicket() }
        for (index, ticket) in tickets.enumerated() {
            gate.enter(ticket) { log.record(index) }
        }
        XCTAssertFalse(gate.withdraw(tickets[0]), "a started piece of work cannot be withdrawn")
        XCTAssertTrue(gate.withdraw(tickets[1]))
        XCTAssertFalse(gate.withdraw(tickets[1]), "withdrawing twice is harmless")
        gate.leave()
        drainStartQueue()
        XCTAssertEqual(log.order, [0, 2])
        gate.leave()
        drainStartQueue()
        XCTAssertEqual(log.order, [0, 2], "the withdrawn waiter never starts")
        XCTAssertEqual(gate.counts.running, 0)
        XCTAssertEqual(gate.counts.waiting, 0)
    }

    func test_admissionGate_manyThreadsEnteringWithdrawingAndLeaving_neverRunsMoreThanTheLimit() {
        let limit = 4
        let gate = InventoryAdmissionGate(limit: limit, startQueue: .global())
        let running = Locked(0)
        let peak = Locked(0)
        let finished = DispatchGroup()
        let total = 400
        for _ in 0..<total { finished.enter() }
        DispatchQueue.concurrentPerform(iterations: total) { index in
            let ticket = gate.makeTicket()
            gate.enter(ticket) {
                let now = running.withLock { value -> Int in value += 1; return value }
                peak.withLock { $0 = max($0, now) }
                DispatchQueue.global().async {
                    running.withLock { $0 -= 1 }
                    gate.leave()
                    finished.leave()
                }
            }
            if index % 3 == 0, gate.withdraw(ticket) { finished.leave() }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success, "every piece of work started or was withdrawn")
        XCTAssertLessThanOrEqual(peak.withLock { $0 }, limit)
        XCTAssertEqual(gate.counts.running, 0)
        XCTAssertEqual(gate.counts.waiting, 0)
    }
}
