import XCTest
@testable import RPCServer

/// `ReaderLifecycle` as a value: every event in every state, with the state it moves to and the
/// action it asks for; then the paths a connection takes through it.
final class ReaderLifecycleTests: XCTestCase {
    typealias State = ReaderLifecycle.State
    typealias Action = ReaderLifecycle.Action

    enum Event: CaseIterable {
        case bytesArrived, inputEnded, noRoomCapacity, noRoomBacklog, roomAvailable, framesExhausted, stop, drained

        func apply(to lifecycle: inout ReaderLifecycle) -> Action {
            switch self {
            case .bytesArrived: return lifecycle.bytesArrived()
            case .inputEnded: return lifecycle.inputEnded()
            case .noRoomCapacity: return lifecycle.noRoom(.capacity)
            case .noRoomBacklog: return lifecycle.noRoom(.backlog)
            case .roomAvailable: return lifecycle.roomAvailable()
            case .framesExhausted: return lifecycle.framesExhausted()
            case .stop: return lifecycle.stop()
            case .drained: return lifecycle.drained()
            }
        }
    }

    /// Every state, each reached from the start by real events (so none is made up).
    static let reachable: [(State, [Event])] = [
        (.reading(inputEnded: false), []),
        (.reading(inputEnded: true), [.inputEnded]),
        (.paused(.capacity, inputEnded: false), [.noRoomCapacity]),
        (.paused(.capacity, inputEnded: true), [.noRoomCapacity, .inputEnded]),
        (.paused(.backlog, inputEnded: false), [.noRoomBacklog]),
        (.paused(.backlog, inputEnded: true), [.inputEnded, .noRoomBacklog]),
        (.draining(stopped: false), [.inputEnded, .framesExhausted]),
        (.draining(stopped: true), [.stop]),
        (.finished, [.stop, .drained]),
    ]

    /// The whole table: for each state and event, the next state and the action.
    func test_everyEventInEveryState() {
        let reading = State.reading(inputEnded: false), readingEnded = State.reading(inputEnded: true)
        let capacity = State.paused(.capacity, inputEnded: false), capacityEnded = State.paused(.capacity, inputEnded: true)
        let backlog = State.paused(.backlog, inputEnded: false), backlogEnded = State.paused(.backlog, inputEnded: true)
        let draining = State.draining(stopped: false), stopped = State.draining(stopped: true)
        let finished = State.finished
        let expected: [State: [Event: (State, Action)]] = [
            reading: [
                .bytesArrived: (reading, .takeFrames), .inputEnded: (readingEnded, .takeFrames),
                .noRoomCapacity: (capacity, .waitForRoom(.capacity)), .noRoomBacklog: (backlog, .waitForRoom(.backlog)),
                .roomAvailable: (reading, .none), .framesExhausted: (reading, .none),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (reading, .none),
            ],
            readingEnded: [
                .bytesArrived: (readingEnded, .takeFrames), .inputEnded: (readingEnded, .none),
                .noRoomCapacity: (capacityEnded, .waitForRoom(.capacity)), .noRoomBacklog: (backlogEnded, .waitForRoom(.backlog)),
                .roomAvailable: (readingEnded, .none), .framesExhausted: (draining, .finishInput),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (readingEnded, .none),
            ],
            capacity: [
                .bytesArrived: (capacity, .bufferBytes), .inputEnded: (capacityEnded, .none),
                .noRoomCapacity: (capacity, .none), .noRoomBacklog: (capacity, .none),
                .roomAvailable: (reading, .takeFrames), .framesExhausted: (capacity, .none),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (capacity, .none),
            ],
            capacityEnded: [
                .bytesArrived: (capacityEnded, .bufferBytes), .inputEnded: (capacityEnded, .none),
                .noRoomCapacity: (capacityEnded, .none), .noRoomBacklog: (capacityEnded, .none),
                .roomAvailable: (readingEnded, .takeFrames), .framesExhausted: (capacityEnded, .none),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (capacityEnded, .none),
            ],
            backlog: [
                .bytesArrived: (backlog, .bufferBytes), .inputEnded: (backlogEnded, .none),
                .noRoomCapacity: (backlog, .none), .noRoomBacklog: (backlog, .none),
                .roomAvailable: (reading, .takeFrames), .framesExhausted: (backlog, .none),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (backlog, .none),
            ],
            backlogEnded: [
                .bytesArrived: (backlogEnded, .bufferBytes), .inputEnded: (backlogEnded, .none),
                .noRoomCapacity: (backlogEnded, .none), .noRoomBacklog: (backlogEnded, .none),
                .roomAvailable: (readingEnded, .takeFrames), .framesExhausted: (backlogEnded, .none),
                .stop: (stopped, .stop(waitForDrain: true)), .drained: (backlogEnded, .none),
            ],
            draining: [
                .bytesArrived: (draining, .ignoreBytes), .inputEnded: (draining, .none),
                .noRoomCapacity: (draining, .none), .noRoomBacklog: (draining, .none),
                .roomAvailable: (draining, .none), .framesExhausted: (draining, .none),
                .stop: (stopped, .stop(waitForDrain: false)), .drained: (finished, .flushAndFinish),
            ],
            stopped: [
                .bytesArrived: (stopped, .ignoreBytes), .inputEnded: (stopped, .none),
                .noRoomCapacity: (stopped, .none), .noRoomBacklog: (stopped, .none),
                .roomAvailable: (stopped, .none), .framesExhausted: (stopped, .none),
                .stop: (stopped, .none), .drained: (finished, .flushAndFinish),
            ],
            finished: [
                .bytesArrived: (finished, .ignoreBytes), .inputEnded: (finished, .none),
                .noRoomCapacity: (finished, .none), .noRoomBacklog: (finished, .none),
                .roomAvailable: (finished, .none), .framesExhausted: (finished, .none),
                .stop: (finished, .none), .drained: (finished, .none),
            ],
        ]
        assertTransitionTable(start: ReaderLifecycle.init, state: \.state, apply: { $0.apply(to: &$1) },
                              reachable: Self.reachable, expected: expected)
    }

    func test_wantsInput_onlyWhileReadingAnOpenInput() {
        for (state, path) in Self.reachable {
            let lifecycle = replay(path, from: ReaderLifecycle()) { $0.apply(to: &$1) }
            XCTAssertEqual(lifecycle.state, state)
            XCTAssertEqual(lifecycle.wantsInput, state == .reading(inputEnded: false), "\(state)")
            XCTAssertEqual(lifecycle.isReading, [.reading(inputEnded: false), .reading(inputEnded: true)].contains(state), "\(state)")
        }
    }

    /// Draining starts when the input is used up, and finishing waits for the calls: the two are
    /// different moments.
    func test_endOfInput_whilePaused_takesTheBufferedFramesFirst_thenDrains_thenFinishes() {
        var lifecycle = ReaderLifecycle()
        XCTAssertEqual(lifecycle.noRoom(.capacity), .waitForRoom(.capacity))
        XCTAssertEqual(lifecycle.inputEnded(), .none, "the buffered frames wait for room")
        XCTAssertEqual(lifecycle.roomAvailable(), .takeFrames)
        XCTAssertEqual(lifecycle.noRoom(.backlog), .waitForRoom(.backlog), "paused again before the frames ran out")
        XCTAssertEqual(lifecycle.roomAvailable(), .takeFrames)
        XCTAssertEqual(lifecycle.framesExhausted(), .finishInput)
        XCTAssertEqual(lifecycle.state, .draining(stopped: false))
        XCTAssertEqual(lifecycle.stop(), .stop(waitForDrain: false), "a signal while draining still ends the calls after the grace")
        XCTAssertEqual(lifecycle.drained(), .flushAndFinish)
        XCTAssertEqual(lifecycle.drained(), .none, "finishes once")
    }
}
