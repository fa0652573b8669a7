import Dispatch
import Foundation
@testable import RPCServer
import SharedSupport
import XCTest
@testable import ShopRPCBinding
@testable import ShopAPI

/// Where `ReadLanes` runs a read: on the calling thread only with the reader's `InlineStart`
/// permission and every lane idle; on a lane otherwise. Deterministic: a lane is kept busy with a
/// semaphore, and where a read ran is told by its thread.
final class ReadLanesTests: XCTestCase {
    func test_idleLanes_withInlineStart_runTheReadBeforeRunReturns() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: true)
        let ran = Locked(false)
        let callingThread = pthread_self()
        InlineStart.granting {
            lanes.run {
                XCTAssertNotEqual(pthread_equal(pthread_self(), callingThread), 0, "on the calling thread")
                ran.withLock { $0 = true }
            }
        }
        XCTAssertTrue(ran.withLock { $0 }, "finished inside run")
    }

    func test_withoutInlineStart_theReadRunsOnALane() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: true)
        let onLane = expectation(description: "read ran")
        let callingThread = pthread_self()
        lanes.run {
            XCTAssertEqual(pthread_equal(pthread_self(), callingThread), 0, "not on the calling thread")
            onLane.fulfill()
        }
        wait(for: [onLane], timeout: 10)  // hang guard only
    }

    func test_busyLane_withInlineStart_theReadGoesToALane() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: true)
        let release = DispatchSemaphore(value: 0)
        let busyStarted = DispatchSemaphore(value: 0)
        lanes.run {
            busyStarted.signal()
            release.wait()
        }
        busyStarted.wait()
        let done = expectation(description: "second read ran")
        let callingThread = pthread_self()
        InlineStart.granting {
            lanes.run {
                XCTAssertEqual(pthread_equal(pthread_self(), callingThread), 0, "with a read running, not run inline")
                done.fulfill()
            }
        }
        release.signal()
        wait(for: [done], timeout: 10)  // hang guard only
    }

    func test_inlineRead_countsAsARead_soAReadStartedMeanwhileGoesToTheOtherLane() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: true)
        let other = expectation(description: "nested read ran")
        let callingThread = pthread_self()
        InlineStart.granting {
            lanes.run {
                // Started from inside the inline read (the permission is spent): queued on a lane.
                lanes.run {
                    XCTAssertEqual(pthread_equal(pthread_self(), callingThread), 0)
                    other.fulfill()
                }
            }
        }
        wait(for: [other], timeout: 10)  // hang guard only
    }

    func test_storeWithRemoteReads_withInlineStart_theReadStillGoesToALane() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: false)
        let onLane = expectation(description: "read ran")
        let callingThread = pthread_self()
        InlineStart.granting {
            lanes.run {
                XCTAssertEqual(pthread_equal(pthread_self(), callingThread), 0, "a PostgreSQL read never holds the reader")
                onLane.fulfill()
            }
        }
        wait(for: [onLane], timeout: 10)  // hang guard only
    }

    /// A lane drains every read queued while it was busy, in arrival order, then goes idle again:
    /// a later read still starts it, and with every lane idle a read may run inline once more.
    func test_readsQueuedOnABusyLane_runInOrder_andTheLaneGoesIdleAfter() {
        let lanes = ReadLanes(count: 1, inlineWhenIdle: true)
        let release = occupyALane(of: lanes)
        let (order, allRan) = queueNumberedReads(100, on: lanes, "queued reads ran")
        release.signal()
        wait(for: [allRan], timeout: 10)  // hang guard only
        XCTAssertEqual(order.withLock { $0 }, Array(0..<100))

        let later = expectation(description: "a read after the lane went idle ran")
        lanes.run { later.fulfill() }
        wait(for: [later], timeout: 10)  // hang guard only

        // Every lane idle again (the count is taken back right after each read, on the lane, so
        // wait for the lane to finish its drain before asking).
        let drained = DispatchSemaphore(value: 0)
        lanes.run { drained.signal() }
        drained.wait()
        let callingThread = pthread_self()
        var ranInline = false
        for _ in 0..<10_000 where !ranInline {  // until the lane has taken back its count; a bound, not a timing
            let inline = Locked(false)
            InlineStart.granting {
                lanes.run { if pthread_equal(pthread_self(), callingThread) != 0 { inline.withLock { $0 = true } } }
            }
            ranInline = inline.withLock { $0 }
            if !ranInline { usleep(1000) }
        }
        XCTAssertTrue(ranInline, "with the lane idle again, a read with the permission runs inline")
    }

    /// Reads wait in one list, not behind a lane: with one lane held by a read that does not
    /// finish, every read queued after it still runs (on the other lane), in arrival order.
    func test_aBlockedLane_holdsUpNoQueuedRead_theOthersRunInArrivalOrder() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: false)
        let release = occupyALane(of: lanes)
        let (order, allRan) = queueNumberedReads(50, on: lanes, "queued reads ran while the first lane is blocked")
        wait(for: [allRan], timeout: 10)  // hang guard only: with per-lane lists, half waited for `release`
        XCTAssertEqual(order.withLock { $0 }, Array(0..<50))
        release.signal()
    }

    /// No more reads run at once than there are lanes (connections), however many are queued,
    /// and an inline read holds one of them.
    func test_readsRunningAtOnce_neverExceedTheLaneCount() {
        let lanes = ReadLanes(count: 3, inlineWhenIdle: true)
        let running = Locked((now: 0, most: 0))
        let allRan = expectation(description: "reads ran")
        allRan.expectedFulfillmentCount = 301
        let read: @Sendable () -> Void = {
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            usleep(200)  // long enough for the lanes to overlap; the bound holds at any speed
            running.withLock { $0.now -= 1 }
            allRan.fulfill()
        }
        InlineStart.granting {
            lanes.run {  // runs inline, holding a connection while the others are queued
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                for _ in 0..<300 { lanes.run(read) }
                usleep(2000)
                running.withLock { $0.now -= 1 }
                allRan.fulfill()
            }
        }
        wait(for: [allRan], timeout: 30)  // hang guard only
        XCTAssertLessThanOrEqual(running.withLock { $0.most }, 3)
    }

    /// A lane runs its reads inside a `ReplyBurst`, so the replies they settle leave together.
    func test_aReadOnALane_runsInsideAReplyBurst() {
        let lanes = ReadLanes(count: 1, inlineWhenIdle: false)
        let inBurst = Locked(false)
        let ran = expectation(description: "read ran")
        lanes.run {
            if ThreadBurst.open != nil { inBurst.withLock { $0 = true } }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)  // hang guard only
        XCTAssertTrue(inBurst.withLock { $0 })
    }

    /// Starts a read that holds its lane until the returned semaphore is signalled; returns once
    /// that read is running.
    private func occupyALane(of lanes: ReadLanes) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        lanes.run {
            started.signal()
            release.wait()
        }
        started.wait()
        return release
    }

    /// Queues reads numbered 0..<count, each appending its number to `order` as it runs and
    /// fulfilling `allRan` once.
    private func queueNumberedReads(_ count: Int, on lanes: ReadLanes, _ description: String)
        -> (order: Locked<[Int]>, allRan: XCTestExpectation) {
        let order = Locked<[Int]>([])
        let allRan = expectation(description: description)
        allRan.expectedFulfillmentCount = count
        for number in 0..<count {
            lanes.run {
                order.withLock { $0.append(number) }
                allRan.fulfill()
            }
        }
        return (order, allRan)
    }
}
