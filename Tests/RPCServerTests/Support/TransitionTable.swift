import XCTest

/// Checks a state machine against its whole transition table: for every state (each reached from
/// the start by the events listed with it, so none is made up) and every event, a machine in that
/// state is given the event, and the state it moves to and what it answers are compared with
/// `expected`. The table must have a row for every state and an entry for every event.
func assertTransitionTable<Machine, State: Hashable, Event: Hashable & CaseIterable, Answer: Equatable>(
    start: () -> Machine, state: (Machine) -> State, apply: (Event, inout Machine) -> Answer,
    reachable: [(State, [Event])], expected: [State: [Event: (State, Answer)]],
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(expected.count, reachable.count, "the table covers every state", file: file, line: line)
    for (from, path) in reachable {
        let row = expected[from] ?? [:]
        XCTAssertEqual(row.count, Event.allCases.count, "the row of \(from) covers every event", file: file, line: line)
        for event in Event.allCases {
            guard let (next, answer) = row[event] else { continue }
            var machine = replay(path, from: start(), apply)
            XCTAssertEqual(state(machine), from, "reaching \(from) via \(path)", file: file, line: line)
            XCTAssertEqual(apply(event, &machine), answer, "\(event) in \(from)", file: file, line: line)
            XCTAssertEqual(state(machine), next, "\(event) in \(from)", file: file, line: line)
        }
    }
}

/// The machine `start` becomes through `events`, in order (what each event answers is dropped).
func replay<Machine, Event, Answer>(_ events: [Event], from start: Machine, _ apply: (Event, inout Machine) -> Answer) -> Machine {
    var machine = start
    for event in events { _ = apply(event, &machine) }
    return machine
}
