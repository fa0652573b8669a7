import Dispatch
import Foundation
@testable import RPCServer
import XCTest
@testable import ShopAPI

/// Where `ReadLanes` runs a read: on the calling thread only with the reader's `InlineStart`
/// permission and every lane idle; on a lane otherwise. Deterministic: a lane is kept busy with a
/// semaphore, and where a read ran is told by its thread.
final class ReadLanesTests: XCTestCase {
    func test_idleLanes_withInlineStart_runTheReadBeforeRunReturns() {
        let lanes = ReadLanes(count: 2, inlineWhenIdle: true)
        let ran = Flag()
        let callingThread = pthread_self()
        InlineStart.granting {
            lanes.run {
                XCTAssertNotEqual(pthread_equal(pthread_self(), callingThread), 0, "on the calling thread")
                ran.set()
            }
        }
        XCTAssertTrue(ran.isSet, "finished inside run")
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

    func test_readsAreLocal_onlyForSQLite() throws {
        XCTAssertTrue(try ShopService.open(path: ":memory:").readsAreLocal)
        XCTAssertFalse(InMemoryShopStore(products: []).readsAreLocal, "a store that does not say so is not local")
    }

    /// A lane drains every read queued while it was busy, in arrival order, then goes idle again:
    /// a later read still starts it, and with every lane idle a read may run inline once more.
    func test_readsQueuedOnABusyLane_runInOrder_andTheLaneGoesIdleAfter() {
        let lanes = ReadLanes(count: 1, inlineWhenIdle: true)
        let release = DispatchSemaphore(value: 0)
        let busyStarted = DispatchSemaphore(value: 0)
        lanes.run {
            busyStarted.signal()
            release.wait()
        }
        busyStarted.wait()
        let order = Locked<[Int]>([])
        let allRan = expectation(description: "queued reads ran")
        allRan.expectedFulfillmentCount = 100
        for number in 0..<100 {
            lanes.run {
                order.withLock { $0.append(number) }
                allRan.fulfill()
            }
        }
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
            let inline = Flag()
            InlineStart.granting {
                lanes.run { if pthread_equal(pthread_self(), callingThread) != 0 { inline.set() } }
            }
            ranInline = inline.isSet
            if !ranInline { usleep(1000) }
        }
        XCTAssertTrue(ranInline, "with the lane idle again, a read with the permission runs inline")
    }
}
