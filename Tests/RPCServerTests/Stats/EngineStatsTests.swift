import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// `rpc.stats`: exact per-method counts for a known sequence of outcomes, errors by code, calls in
/// flight, the server's own sections; hidden from MCP tools, listed by rpc.discover, never
/// counting itself.
final class EngineStatsTests: XCTestCase {
    private func statsRegistry(log: HandlerLog) -> MethodRegistry {
        var registry = testRegistry(log: log)
        registry.register(.async("refuse", params: NoParams.self) { _, _ -> EmptyResult in
            throw RPCError(code: RPCErrorCode(1003), type: "UnknownProduct", message: "Unknown product")
        })
        return registry
    }

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ bytes: [UInt8]) {
        engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) }
    }

    /// Sends `rpc.stats` with `id` and returns its result once it arrived.
    private func stats(_ engine: RPCEngine, _ collector: ReplyCollector, id: Int) -> JSONValue? {
        submit(engine, collector, request(id, "rpc.stats"))
        let isTheReply: (JSONValue) -> Bool = { $0["id"] == .int(Int64(id)) }
        eventually { collector.all.contains(where: isTheReply) }
        return collector.all.first(where: isTheReply)?["result"]
    }

    func test_knownSequence_countsOkErrorsDeadlinesAndCancelsExactly() {
        let engine = RPCEngine(registry: statsRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        for id in 1...3 { submit(engine, collector, request(id, "echo", ["n": .int(Int64(id))])) }
        submit(engine, collector, request(4, "boom"))
        submit(engine, collector, request(5, "refuse"))
        submit(engine, collector, request(6, "refuse"))
        submit(engine, collector, request(7, "wait", ["ms": 60_000, "_meta": ["deadlineMs": 20]]))
        submit(engine, collector, request(8, "wait", ["ms": 60_000]))
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 8]]))
        // A cancel for a call that is over cancels nothing and is not counted.
        collector.wait(for: 8)
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]))

        let result = stats(engine, collector, id: 100)
        let methods = result?["methods"]
        XCTAssertEqual(methods?["echo"]?["calls"], 3)
        XCTAssertEqual(methods?["echo"]?["ok"], 3)
        XCTAssertEqual(methods?["echo"]?["errors"], [:])
        XCTAssertEqual(methods?["boom"]?["errors"], ["-32603": 1])
        XCTAssertEqual(methods?["refuse"]?["calls"], 2)
        XCTAssertEqual(methods?["refuse"]?["ok"], 0)
        XCTAssertEqual(methods?["refuse"]?["errors"], ["1003": 2])
        XCTAssertEqual(methods?["wait"], [
            "calls": 2, "ok": 0, "errors": ["-32800": 1, "-32001": 1], "deadlineExpiries": 1, "cancels": 1, "inFlight": 0,
            "latencyMs": methods?["wait"]?["latencyMs"] ?? .null,
        ])
        for name in ["echo", "boom", "refuse", "wait"] {
            let p50 = methods?[name]?["latencyMs"]?["p50"]?.doubleValue ?? -1
            let p99 = methods?[name]?["latencyMs"]?["p99"]?.doubleValue ?? -1
            XCTAssertGreaterThanOrEqual(p50, 0, name)
            XCTAssertLessThanOrEqual(p50, p99, name)
        }
        // Never called: zero counts and no quantiles yet.
        XCTAssertEqual(methods?["sleep"], [
            "calls": 0, "ok": 0, "errors": [:], "deadlineExpiries": 0, "cancels": 0, "inFlight": 0,
            "latencyMs": ["p50": .null, "p99": .null],
        ])
        XCTAssertEqual(methods?.objectValue?.members.map(\.key), ["echo", "wait", "limited", "sleep", "boom", "refuse"])
        XCTAssertGreaterThanOrEqual(result?["uptimeMs"]?.doubleValue ?? -1, 0)
        XCTAssertEqual(result?["sections"], [:])
    }

    func test_aHeldCall_isInFlight_untilItSettles() {
        let engine = RPCEngine(registry: statsRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "wait", ["ms": 60_000]))
        submit(engine, collector, request(2, "wait", ["ms": 60_000]))
        let held = stats(engine, collector, id: 10)?["methods"]?["wait"]
        XCTAssertEqual(held?["calls"], 2)
        XCTAssertEqual(held?["inFlight"], 2)
        XCTAssertEqual(held?["latencyMs"]?["p50"], .null)
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]))
        collector.wait(for: 2)
        let after = stats(engine, collector, id: 11)?["methods"]?["wait"]
        XCTAssertEqual(after?["inFlight"], 1)
        XCTAssertEqual(after?["cancels"], 1)
        engine.abortAllInflight()
        collector.wait(for: 4)
        let shutDown = stats(engine, collector, id: 12)?["methods"]?["wait"]
        XCTAssertEqual(shutDown?["inFlight"], 0)
        XCTAssertEqual(shutDown?["errors"], ["-32800": 1, "-32002": 1])
        XCTAssertEqual(shutDown?["cancels"], 1, "shutdown is not a client cancel")
    }

    func test_rpcStats_doesNotCountItself_norOtherBuiltIns() {
        let engine = RPCEngine(registry: statsRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "ping"))
        submit(engine, collector, request(2, "rpc.discover"))
        _ = stats(engine, collector, id: 3)
        let result = stats(engine, collector, id: 4)
        XCTAssertEqual(result?["methods"]?.objectValue?.members.map(\.key).contains("rpc.stats"), false)
        for member in result?["methods"]?.objectValue?.members ?? [] {
            XCTAssertEqual(member.value["calls"], 0, member.key)
        }
    }

    func test_aToolCall_countsUnderItsMethod() {
        let engine = RPCEngine(registry: statsRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                     "params": ["name": "refuse", "arguments": [:]]]))
        collector.wait(for: 1)
        let refuse = stats(engine, collector, id: 2)?["methods"]?["refuse"]
        XCTAssertEqual(refuse?["calls"], 1)
        XCTAssertEqual(refuse?["errors"], ["1003": 1])
    }

    func test_serverSections_appearComputedAtCallTime_inTheOrderAdded() {
        let counter = Locked(0)
        var registry = statsRegistry(log: HandlerLog())
        registry.addStatsSection("inventory") { ["limit": .int(Int64(counter.withLock { $0 }))] }
        registry.addStatsSection("cache") { ["entries": 1] }
        registry.addStatsSection("inventory") { ["limit": .int(Int64(counter.withLock { $0 })), "replaced": true] }
        let engine = RPCEngine(registry: registry)
        let collector = ReplyCollector()
        XCTAssertEqual(stats(engine, collector, id: 1)?["sections"], ["inventory": ["limit": 0, "replaced": true], "cache": ["entries": 1]])
        counter.withLock { $0 = 7 }
        XCTAssertEqual(stats(engine, collector, id: 2)?["sections"]?["inventory"]?["limit"], 7)
    }

    func test_rpcStats_isNotAnMCPTool_butRPCDiscoverListsIt() {
        let engine = RPCEngine(registry: statsRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#.bytes)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.bytes)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rpc_stats"}}"#.bytes)
        submit(engine, collector, request(3, "rpc.discover"))
        let replies = collector.wait(for: 4)
        let tools = replies.first { $0["id"] == 1 }?["result"]?["tools"]?.arrayValue ?? []
        XCTAssertFalse(tools.isEmpty)
        XCTAssertFalse(tools.contains { ["rpc_stats", "rpc.stats"].contains($0["name"]?.stringValue) })
        XCTAssertEqual(replies.first { $0["id"] == 2 }?["error"]?["code"], -32602)
        let discovered = replies.first { $0["id"] == 3 }?["result"]?["methods"]?.arrayValue ?? []
        XCTAssertEqual(discovered.first { $0["name"] == "rpc.stats" }?["result"]?["schema"]?["required"], ["uptimeMs", "methods", "sections"])
        // Still answered as a plain request inside the MCP session.
        XCTAssertNotNil(stats(engine, collector, id: 4)?["methods"])
    }
}

private extension String {
    var bytes: [UInt8] { Array(utf8) }
}
