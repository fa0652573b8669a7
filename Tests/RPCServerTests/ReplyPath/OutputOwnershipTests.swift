import XCTest
@testable import RPCServer

/// `OutputOwnership` as a value: every event in every state, with the state it moves to and what
/// it tells its caller; then the paths the writer takes through it.
final class OutputOwnershipTests: XCTestCase {
    typealias State = OutputOwnership.State

    /// Every event, with the pending byte count it is told where it takes one.
    enum Event: CaseIterable {
        case requestFlush, takeForDirectWrite, flushStartsWithNothing, flushStartsWithBytes
        case writeEndedNothingMore, writeEndedMorePending, writeFailed

        /// What the event returned, as text, so one table holds every event's answer.
        func apply(to ownership: inout OutputOwnership) -> String {
            switch self {
            case .requestFlush: return "\(ownership.requestFlush())"
            case .takeForDirectWrite: return "\(ownership.takeForDirectWrite(pending: 7))"
            case .flushStartsWithNothing: return "\(ownership.flushStarts(pending: 0))"
            case .flushStartsWithBytes: return "\(ownership.flushStarts(pending: 5))"
            case .writeEndedNothingMore: return "\(ownership.writeEnded(failed: false, pending: 0))"
            case .writeEndedMorePending: return "\(ownership.writeEnded(failed: false, pending: 3))"
            case .writeFailed: return "\(ownership.writeEnded(failed: true, pending: 3))"
            }
        }
    }

    /// Every state, each reached from the start by real events.
    static let reachable: [(State, [Event])] = [
        (.idle, []),
        (.flushScheduled, [.requestFlush]),
        (.writerQueue(writing: 5), [.requestFlush, .flushStartsWithBytes]),
        (.direct(writing: 7), [.takeForDirectWrite]),
        (.closed, [.takeForDirectWrite, .writeFailed]),
    ]

    func test_everyEventInEveryState() {
        let idle = State.idle, scheduled = State.flushScheduled, queue = State.writerQueue(writing: 5)
        let direct = State.direct(writing: 7), closed = State.closed
        let expected: [State: [Event: (State, String)]] = [
            idle: [
                .requestFlush: (scheduled, "true"), .takeForDirectWrite: (direct, "true"),
                .flushStartsWithNothing: (idle, "flushed"), .flushStartsWithBytes: (queue, "write"),
                .writeEndedNothingMore: (idle, "notOwned"), .writeEndedMorePending: (idle, "notOwned"),
                .writeFailed: (closed, "closed"),
            ],
            scheduled: [
                .requestFlush: (scheduled, "false"), .takeForDirectWrite: (scheduled, "false"),
                .flushStartsWithNothing: (idle, "flushed"), .flushStartsWithBytes: (queue, "write"),
                .writeEndedNothingMore: (scheduled, "notOwned"), .writeEndedMorePending: (scheduled, "notOwned"),
                .writeFailed: (closed, "closed"),
            ],
            queue: [
                .requestFlush: (queue, "false"), .takeForDirectWrite: (queue, "false"),
                .flushStartsWithNothing: (queue, "ownedElsewhere"), .flushStartsWithBytes: (queue, "ownedElsewhere"),
                .writeEndedNothingMore: (idle, "flushed"), .writeEndedMorePending: (.writerQueue(writing: 3), "writeMore"),
                .writeFailed: (closed, "closed"),
            ],
            direct: [
                .requestFlush: (direct, "false"), .takeForDirectWrite: (direct, "false"),
                .flushStartsWithNothing: (direct, "ownedElsewhere"), .flushStartsWithBytes: (direct, "ownedElsewhere"),
                .writeEndedNothingMore: (idle, "flushed"), .writeEndedMorePending: (scheduled, "scheduleFlush"),
                .writeFailed: (closed, "closed"),
            ],
            closed: [
                .requestFlush: (closed, "false"), .takeForDirectWrite: (closed, "false"),
                .flushStartsWithNothing: (closed, "closed"), .flushStartsWithBytes: (closed, "closed"),
                .writeEndedNothingMore: (closed, "closed"), .writeEndedMorePending: (closed, "closed"),
                .writeFailed: (closed, "closed"),
            ],
        ]
        assertTransitionTable(start: OutputOwnership.init, state: \.state, apply: { $0.apply(to: &$1) },
                              reachable: Self.reachable, expected: expected)
    }

    func test_writing_countsOnlyTheBatchAnOwnerIsWriting() {
        let counts = Self.reachable.map { _, path in replay(path, from: OutputOwnership()) { $0.apply(to: &$1) }.writing }
        XCTAssertEqual(counts, [0, 0, 5, 7, 0])
    }

    /// A direct writer that finds more pending hands it to the writer queue; the writer queue goes
    /// on by itself until nothing is pending. Nobody waits for the other.
    func test_directWriteThenMore_schedulesOneFlush_whichWritesUntilNothingIsPending() {
        var ownership = OutputOwnership()
        XCTAssertTrue(ownership.takeForDirectWrite(pending: 10))
        XCTAssertFalse(ownership.requestFlush(), "appends while a direct writer owns it only wait")
        XCTAssertEqual(ownership.flushStarts(pending: 4), .ownedElsewhere, "a flush that runs meanwhile leaves at once")
        XCTAssertEqual(ownership.writeEnded(failed: false, pending: 4), .scheduleFlush)
        XCTAssertFalse(ownership.requestFlush(), "one flush is scheduled, not two")
        XCTAssertEqual(ownership.flushStarts(pending: 4), .write)
        XCTAssertEqual(ownership.writeEnded(failed: false, pending: 2), .writeMore)
        XCTAssertEqual(ownership.writing, 2)
        XCTAssertEqual(ownership.writeEnded(failed: false, pending: 0), .flushed)
        XCTAssertEqual(ownership.state, .idle)
    }
}
