import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// Methods answered `InterruptionReply.afterWorkStops` (the shop's writes): a deadline, a cancel
/// or shutdown is answered with what the work did, never with an error for work that was done.
final class EngineInterruptionReplyTests: XCTestCase {
    /// What the test handlers "committed", by request id.
    private let commits = Locked<Set<String>>([])

    struct SaveParams: Codable, Sendable {
        /// Whether the work, once its token fires, completes anyway (a commit already under way).
        var commitAnyway: Bool
        var key: String
    }

    struct RaceParams: Codable, Sendable {
        var ms: Int
        var key: String
    }

    private func engine(started: HandlerLog = HandlerLog(), gateHeld: DispatchSemaphore? = nil) -> RPCEngine {
        let commits = self.commits
        // Runs until its token fires, then commits or rolls back as told.
        let save = MethodSpec.callback("save", params: SaveParams.self, deadlineMs: 30_000) { params, context, done in
            started.start()
            context.cancellation.onCancel {
                started.finish(cancelled: true)
                if params.commitAnyway {
                    commits.withLock { _ = $0.insert(params.key) }
                    done(.success(["saved": .string(params.key)] as JSONValue))
                } else {
                    done(.failure(RPCError(code: RPCErrorCode(rawValue: 1007), type: "Interrupted", message: "rolled back")))
                }
            }
        }.answeringInterruptionsAfterWorkStops()
        // Commits after `ms` unless its token fired first (then rolls back): the two race.
        let race = MethodSpec.callback("race", params: RaceParams.self) { params, context, done in
            let decided = OneShot()
            let timer = DispatchWorkItem {
                guard decided.claim() else { return }
                commits.withLock { _ = $0.insert(params.key) }
                done(.success(EmptyResult()))
            }
            context.cancellation.onCancel {
                guard decided.claim() else { return }
                done(.failure(CancellationError()))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(params.ms), execute: timer)
        }.answeringInterruptionsAfterWorkStops()
        // One at a time; the first holds the slot until `gateHeld` is signalled.
        let single = MethodSpec.callback("single", params: SaveParams.self, concurrencyLimit: 1) { params, _, done in
            started.start()
            DispatchQueue.global().async {
                gateHeld?.wait()
                started.finish(cancelled: false)
                done(.success(EmptyResult()))
            }
        }.answeringInterruptionsAfterWorkStops()
        var configuration = EngineConfiguration()
        configuration.maxInflight = 100_000
        return RPCEngine(registry: MethodRegistry([save, race, single]), configuration: configuration)
    }

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ bytes: [UInt8]) {
        engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) }
    }

    private static func id(_ reply: JSONValue) -> Int? {
        if case .int(let id)? = reply["id"] { return Int(id) }
        return nil
    }

    private func cancel(_ id: Int) -> [UInt8] {
        JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(Int64(id))]])
    }

    // MARK: - Deadline

    func test_deadlineWhileRunning_workThatCommitsAnyway_isAnsweredWithItsResult() {
        let engine = engine()
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "save", ["commitAnyway": true, "key": "a", "_meta": ["deadlineMs": 20]]))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["result"]?["saved"], "a", "\(reply)")
        XCTAssertEqual(commits.withLock { $0 }, ["a"])
    }

    func test_deadlineWhileRunning_workThatRollsBack_isAnsweredWithTheDeadlineError() {
        let engine = engine()
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "save", ["commitAnyway": false, "key": "a", "_meta": ["deadlineMs": 20]]))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["error"]?["code"], -32001, "\(reply)")
        XCTAssertEqual(reply["error"]?["data"]?["type"], "DeadlineExceeded")
        XCTAssertEqual(reply["error"]?["data"]?["deadlineMs"], 20)
        XCTAssertEqual(commits.withLock { $0 }, [])
    }

    // MARK: - Cancel and shutdown

    /// Two saves running on one engine, id 1 committing anyway and id 2 rolling back once
    /// interrupted; `interrupt` interrupts both, and the replies come back by id.
    private func twoRunningSaves(interruptedBy interrupt: (RPCEngine, ReplyCollector) -> Void) -> [Int: JSONValue] {
        let started = HandlerLog()
        let engine = engine(started: started)
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "save", ["commitAnyway": true, "key": "kept"]))
        submit(engine, collector, request(2, "save", ["commitAnyway": false, "key": "undone"]))
        eventually { started.started == 2 }
        interrupt(engine, collector)
        return Dictionary(uniqueKeysWithValues: collector.wait(for: 2).map { (Self.id($0) ?? -1, $0) })
    }

    func test_cancelWhileRunning_isAnsweredWithWhatTheWorkDid() {
        let replies = twoRunningSaves { engine, collector in
            submit(engine, collector, cancel(1))
            submit(engine, collector, cancel(2))
        }
        XCTAssertEqual(replies[1]?["result"]?["saved"], "kept", "\(replies)")
        XCTAssertEqual(replies[2]?["error"]?["code"], -32800, "\(replies)")
        XCTAssertEqual(replies[2]?["error"]?["data"]?["type"], "Cancelled")
        XCTAssertEqual(commits.withLock { $0 }, ["kept"])
    }

    func test_shutdownWhileRunning_waitsForTheWork_andAnswersWithWhatItDid() {
        let replies = twoRunningSaves { engine, _ in engine.abortAllInflight() }
        XCTAssertEqual(replies[1]?["result"]?["saved"], "kept", "\(replies)")
        XCTAssertEqual(replies[2]?["error"]?["data"]?["type"], "ShuttingDown", "\(replies)")
    }

    func test_cancelBeforeTheHandlerStarts_isAnsweredAtOnce_andTheHandlerNeverRuns() {
        let started = HandlerLog()
        let holding = DispatchSemaphore(value: 0)
        let engine = engine(started: started, gateHeld: holding)
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "single", ["commitAnyway": false, "key": "first"]))
        eventually { started.started == 1 }
        submit(engine, collector, request(2, "single", ["commitAnyway": false, "key": "queued"]))  // waits at the gate
        submit(engine, collector, cancel(2))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["id"], 2)
        XCTAssertEqual(reply["error"]?["code"], -32800, "answered while the first call still holds the gate")
        holding.signal()
        XCTAssertEqual(collector.wait(for: 2)[1]["id"], 1)
        eventually { engine.inflightCount == 0 }
        XCTAssertEqual(started.started, 1, "the cancelled call's handler never ran")
    }

    // MARK: - The race

    /// Thousands of calls whose commit, deadline and cancel race: every id answered once, with
    /// its result exactly when its work committed.
    func test_raceOfCommitDeadlineAndCancel_repliesWithAResultExactlyForTheCommittedWork() {
        let engine = engine()
        let collector = ReplyCollector()
        let total = 5_000
        for id in 0..<total {
            submit(engine, collector, request(id, "race", ["ms": .int(Int64(id % 4)), "key": .string("\(id)"),
                                                          "_meta": ["deadlineMs": .int(Int64(1 + id % 3))]]))
            if id % 5 == 0 { submit(engine, collector, cancel(id)) }
        }
        let replies = collector.wait(for: total, timeout: 120)
        eventually { engine.inflightCount == 0 }
        collector.queue.sync {}
        XCTAssertEqual(collector.all.count, total, "one reply per id")
        let committed = commits.withLock { $0 }
        var kinds: [String: Int] = [:]
        for reply in replies {
            guard let id = Self.id(reply) else { return XCTFail("bad reply \(reply)") }
            let isResult = reply["result"] != nil
            XCTAssertEqual(isResult, committed.contains("\(id)"), "id \(id): \(reply)")
            kinds[isResult ? "result" : (reply["error"]?["data"]?["type"]?.stringValue ?? "?"), default: 0] += 1
        }
        XCTAssertEqual(Set(kinds.keys).subtracting(["result", "DeadlineExceeded", "Cancelled"]), [], "\(kinds)")
    }
}
