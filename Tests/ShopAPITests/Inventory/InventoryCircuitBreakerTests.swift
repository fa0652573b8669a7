import XCTest
@testable import ShopAPI

/// The inventory circuit breaker on times the test gives it: opening after a run of failures,
/// refusing while open, one probe at a time when half-open, closing on the probe's success.
final class InventoryCircuitBreakerTests: XCTestCase {
    private let ms: UInt64 = 1_000_000
    private let start: UInt64 = 1_000_000_000

    private func breaker() -> InventoryCircuitBreaker {
        InventoryCircuitBreaker(failureThreshold: 5, coolDownMilliseconds: 2_000)
    }

    func test_fiveFailuresInARow_open_andASuccessBetweenResetsTheRun() {
        var circuit = breaker()
        for _ in 0..<4 { circuit.record(.failure, probe: false, now: start) }
        circuit.record(.success, probe: false, now: start)
        for _ in 0..<4 { circuit.record(.failure, probe: false, now: start) }
        XCTAssertEqual(circuit.admit(now: start), .send(probe: false), "4 in a row after a success: still closed")
        circuit.record(.failure, probe: false, now: start)
        XCTAssertEqual(circuit.admit(now: start), .refuse(retryAfterMs: 2_000))
        XCTAssertEqual(circuit.stateName, "open")
        XCTAssertEqual(circuit.timesOpened, 1)
        XCTAssertEqual(circuit.admit(now: start + 1_500 * ms), .refuse(retryAfterMs: 500))
        XCTAssertEqual(circuit.admit(now: start + 1_999 * ms + 1), .refuse(retryAfterMs: 1), "the wait is rounded up")
    }

    func test_afterTheCoolDown_oneProbeAtATime_itsSuccessCloses() {
        var circuit = breaker()
        for _ in 0..<5 { circuit.record(.failure, probe: false, now: start) }
        let later = start + 2_000 * ms
        XCTAssertEqual(circuit.admit(now: later), .send(probe: true))
        XCTAssertEqual(circuit.stateName, "halfOpen")
        XCTAssertEqual(circuit.admit(now: later), .refuse(retryAfterMs: 2_000), "only one probe at a time")
        circuit.record(.success, probe: true, now: later)
        XCTAssertEqual(circuit.stateName, "closed")
        XCTAssertEqual(circuit.admit(now: later), .send(probe: false))
    }

    func test_aFailedProbe_opensForAnotherCoolDown_andAProbeWithoutVerdictLetsTheNextProbe() {
        var circuit = breaker()
        for _ in 0..<5 { circuit.record(.failure, probe: false, now: start) }
        var now = start + 2_000 * ms
        XCTAssertEqual(circuit.admit(now: now), .send(probe: true))
        circuit.record(.failure, probe: true, now: now)
        XCTAssertEqual(circuit.admit(now: now), .refuse(retryAfterMs: 2_000))
        XCTAssertEqual(circuit.timesOpened, 2)
        now += 2_000 * ms
        XCTAssertEqual(circuit.admit(now: now), .send(probe: true))
        circuit.record(.none, probe: true, now: now)  // its client cancelled it
        XCTAssertEqual(circuit.admit(now: now), .send(probe: true), "the next check probes at once")
        circuit.record(.success, probe: true, now: now)
        XCTAssertEqual(circuit.stateName, "closed")
    }

    func test_lateResults_aSuccessCloses_butAnOldFailureDoesNotReopenAHalfOpenCircuit() {
        var circuit = breaker()
        for _ in 0..<5 { circuit.record(.failure, probe: false, now: start) }
        circuit.record(.failure, probe: false, now: start)
        circuit.record(.success, probe: false, now: start)
        XCTAssertEqual(circuit.stateName, "closed", "a success closes it: the service answered")
        for _ in 0..<5 { circuit.record(.failure, probe: false, now: start) }
        XCTAssertEqual(circuit.admit(now: start + 2_000 * ms), .send(probe: true))
        circuit.record(.failure, probe: false, now: start + 2_000 * ms)  // an old request's failure, not the probe's
        XCTAssertEqual(circuit.stateName, "halfOpen")
    }
}
