import XCTest
@testable import RPCServer

/// `InterruptibleWorkState`, the life of a write's work, against its whole transition table.
final class InterruptibleWorkStateTests: XCTestCase {
    private enum Event: CaseIterable, Hashable {
        case start, deadline, cancel, shutdown, finish
    }

    private enum Answer: Equatable {
        case started(Bool)
        case interrupt(InterruptibleWorkState.InterruptAction)
        case finished(CallInterruption?)
    }

    private typealias State = InterruptibleWorkState.State

    private func apply(_ event: Event, _ machine: inout InterruptibleWorkState) -> Answer {
        switch event {
        case .start: .started(machine.start())
        case .deadline: .interrupt(machine.interrupt(.deadline))
        case .cancel: .interrupt(machine.interrupt(.clientCancel(sendsReply: true)))
        case .shutdown: .interrupt(machine.interrupt(.shutdown))
        case .finish: .finished(machine.finish())
        }
    }

    func test_everyStateAndEvent() {
        let running = State.running(interruptedBy: nil)
        let late = State.running(interruptedBy: .deadline)
        let cancelled = State.running(interruptedBy: .clientCancel(sendsReply: true))
        let shutDown = State.running(interruptedBy: .shutdown)
        let interruptedWhileRunning: (State) -> [Event: (State, Answer)] = { state in
            guard case .running(let cause) = state else { return [:] }
            return [.start: (state, .started(false)), .deadline: (state, .interrupt(.none)), .cancel: (state, .interrupt(.none)),
                    .shutdown: (state, .interrupt(.none)), .finish: (.finished, .finished(cause))]
        }
        assertTransitionTable(
            start: { InterruptibleWorkState() }, state: \.state, apply: apply,
            reachable: [(.notStarted, []), (running, [.start]), (late, [.start, .deadline]), (cancelled, [.start, .cancel]),
                        (shutDown, [.start, .shutdown]), (.abandoned, [.deadline]), (.finished, [.start, .finish])],
            expected: [
                // Interrupted before it starts: answered now, and the handler never runs.
                .notStarted: [.start: (running, .started(true)), .deadline: (.abandoned, .interrupt(.settleNow)),
                              .cancel: (.abandoned, .interrupt(.settleNow)), .shutdown: (.abandoned, .interrupt(.settleNow)),
                              .finish: (.notStarted, .finished(nil))],
                // Interrupted while it runs: the work is cancelled and its outcome decides the reply.
                running: [.start: (running, .started(false)), .deadline: (late, .interrupt(.cancelWork)),
                          .cancel: (cancelled, .interrupt(.cancelWork)), .shutdown: (shutDown, .interrupt(.cancelWork)),
                          .finish: (.finished, .finished(nil))],
                // The first interruption is the one the reply names.
                late: interruptedWhileRunning(late),
                cancelled: interruptedWhileRunning(cancelled),
                shutDown: interruptedWhileRunning(shutDown),
                .abandoned: [.start: (.abandoned, .started(false)), .deadline: (.abandoned, .interrupt(.none)),
                             .cancel: (.abandoned, .interrupt(.none)), .shutdown: (.abandoned, .interrupt(.none)),
                             .finish: (.abandoned, .finished(nil))],
                .finished: [.start: (.finished, .started(false)), .deadline: (.finished, .interrupt(.none)),
                            .cancel: (.finished, .interrupt(.none)), .shutdown: (.finished, .interrupt(.none)),
                            .finish: (.finished, .finished(nil))],
            ])
    }
}
