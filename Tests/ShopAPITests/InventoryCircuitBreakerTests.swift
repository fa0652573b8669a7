import Synchronization
import XCTest
@testable import ShopAPI

/// The inventory circuit breaker on a clock the test moves: opening after a run of failures,
/// refusing while open, one probe at a time when half-open, closing on the probe's success.
final class InventoryCircuitBreakerTests: XCTestCase {
    private final class Clock: Sendable {
        private let nanoseconds = Mutex<UInt64>(1_000_000_000)
        var now: UInt64 { nanoseconds.withLock { $0 } }
        func advance(milliseconds: UInt64) { nanoseconds.withLock { $0 += milliseconds * 1_000_000 } }
    }

    private func breaker(_ clock: Clock) -> InventoryCircuitBreaker {
        InventoryCircuitBreaker(failureThreshold: 5, coolDownMilliseconds: 2_000) { clock.now }
    }

    func test_fiveFailuresInARow_open_andASuccessBetweenResetsTheRun() {
        let clock = Clock()
        let circuit = breaker(clock)
        for _ in 0..<4 { circuit.record(.failure, probe: false) }
        circuit.record(.success, probe: false)
        for _ in 0..<4 { circuit.record(.failure, probe: false) }
        XCTAssertEqual(circuit.admit(), .send(probe: false), "4 in a row after a success: still closed")
        circuit.record(.failure, probe: false)
        XCTAssertEqual(circuit.admit(), .refuse(retryAfterMs: 2_000))
        XCTAssertEqual(circuit.snapshot.state, "open")
        XCTAssertEqual(circuit.snapshot.timesOpened, 1)
        clock.advance(milliseconds: 1_500)
        XCTAssertEqual(circuit.admit(), .refuse(retryAfterMs: 500))
    }

    func test_afterTheCoolDown_oneProbeAtATime_itsSuccessCloses() {
        let clock = Clock()
        let circuit = breaker(clock)
        for _ in 0..<5 { circuit.record(.failure, probe: false) }
        clock.advance(milliseconds: 2_000)
        XCTAssertEqual(circuit.admit(), .send(probe: true))
        XCTAssertEqual(circuit.snapshot.state, "halfOpen")
        XCTAssertEqual(circuit.admit(), .refuse(retryAfterMs: 2_000), "only one probe at a time")
        circuit.record(.success, probe: true)
        XCTAssertEqual(circuit.snapshot.state, "closed")
        XCTAssertEqual(circuit.admit(), .send(probe: false))
    }

    func test_aFailedProbe_opensForAnotherCoolDown_andAProbeWithoutVerdictLetsTheNextProbe() {
        let clock = Clock()
        let circuit = breaker(clock)
        for _ in 0..<5 { circuit.record(.failure, probe: false) }
        clock.advance(milliseconds: 2_000)
        XCTAssertEqual(circuit.admit(), .send(probe: true))
        circuit.record(.failure, probe: true)
        XCTAssertEqual(circuit.admit(), .refuse(retryAfterMs: 2_000))
        XCTAssertEqual(circuit.snapshot.timesOpened, 2)
        clock.advance(milliseconds: 2_000)
        XCTAssertEqual(circuit.admit(), .send(probe: true))
        circuit.record(.none, probe: true)  // its client cancelled it
        XCTAssertEqual(circuit.admit(), .send(probe: true), "the next check probes at once")
        circuit.record(.success, probe: true)
        XCTAssertEqual(circuit.snapshot.state, "closed")
    }

    func test_lateResults_aSuccessCloses_butAnOldFailureDoesNotReopenAHalfOpenCircuit() {
        let clock = Clock()
        let circuit = breaker(clock)
        for _ in 0..<5 { circuit.record(.failure, probe: false) }
        circuit.record(.failure, probe: false)
        circuit.record(.success, probe: false)
        XCTAssertEqual(circuit.snapshot.state, "closed", "a success closes it: the service answered")
        for _ in 0..<5 { circuit.record(.failure, probe: false) }
        clock.advance(milliseconds: 2_000)
        XCTAssertEqual(circuit.admit(), .send(probe: true))
        circuit.record(.failure, probe: false)  // an old request's failure, not the probe's
        XCTAssertEqual(circuit.snapshot.state, "halfOpen")
    }
}
