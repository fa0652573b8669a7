import Foundation
import XCTest

/// A write whose deadline passes, or that the client cancels, while it runs is answered with
/// what happened to it: -32001 or -32800 and nothing written, or its result and everything
/// written. Never an error for work that was done (protocol.md section 4). Over real pipes, on
/// a SQLite file and on PostgreSQL.
///
/// Each round upserts products no round shares, and then looks each round's first and last
/// products up and counts its ledger rows; the checks hold whichever way a round went, so no
/// timing makes them pass or fail. The deadlines are spread over the time one uninterrupted
/// upsert takes on this machine, in this build, so most rounds land inside the transaction.
final class WriteInterruptionTests: XCTestCase {
    private static let productsPerRound = 1000

    func test_productsUpsert_pastDeadlineOrCancelledWhileRunning_repliesWithWhatHappened() throws {
        try CommandStore.forEach { store in
            let server = try ServerProcess(["--db", store.location, "--allow", "read,write,admin"])
            defer { server.closeInput() }

            // How long one upsert takes here, uninterrupted.
            let started = Date()
            server.sendLine(upsert("timing", round: "T"))
            let timing = server.readReplies(1)["timing"]
            XCTAssertNotNil(timing?["result"], "\(timing ?? [:]) \(server.stderrOutput)")
            let fullMs = max(2, Int(Date().timeIntervalSince(started) * 1000))

            var committedRounds = ["T"]
            var outcomes: [String: Int] = [:]
            for step in 1...12 {
                let round = "D\(step)"
                server.sendLine(upsert(round, round: round, deadlineMs: max(1, fullMs * step / 10)))
                let reply = try XCTUnwrap(server.readReplies(1)[round])
                if try check(reply, round: round, interruption: "DeadlineExceeded", on: server) { committedRounds.append(round) }
                outcomes[kind(reply), default: 0] += 1
            }
            for step in 0..<8 {
                let round = "C\(step)"
                server.sendLine(upsert(round, round: round))
                if step > 0 { usleep(useconds_t(fullMs * 1000 * step / 8)) }
                server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"\#(round)"}}"#)
                let reply = try XCTUnwrap(server.readReplies(1)[round])
                if try check(reply, round: round, interruption: "Cancelled", on: server) { committedRounds.append(round) }
                outcomes[kind(reply), default: 0] += 1
            }
            print("WriteInterruptionTests on \(store.kind.rawValue): one upsert \(fullMs) ms; outcomes \(outcomes)")

            // Exactly the committed rounds' levels are in the ledger: one row per product.
            server.closeInput()
            XCTAssertEqual(server.waitForExit(timeout: 60), 0)
            let ledger = try runCommand(["export", "ledger", "--db", store.location, "--format", "ndjson"])
            XCTAssertEqual(ledger.status, 0, ledger.stderr)
            let rows = ledger.stdout.split(separator: "\n").filter { $0.contains(#""admin.products.upsert""#) }
            XCTAssertEqual(rows.count, committedRounds.count * Self.productsPerRound,
                           "ledger rows for rounds \(committedRounds) only")
        }
    }

    /// Checks one round's reply against the store; returns whether the round committed.
    private func check(_ reply: [String: Any], round: String, interruption: String, on server: ServerProcess) throws -> Bool {
        let first = lookUp("\(round)-0001", on: server)
        let last = lookUp("\(round)-\(String(format: "%04d", Self.productsPerRound))", on: server)
        if let result = reply["result"] as? [String: Any] {
            XCTAssertEqual(result["created"] as? Int, Self.productsPerRound, "\(round): \(result)")
            XCTAssertTrue(first && last, "\(round) answered its result, so every product is there")
            return true
        }
        let error = try XCTUnwrap(reply["error"] as? [String: Any], "\(round): \(reply)")
        XCTAssertEqual((error["data"] as? [String: Any])?["type"] as? String, interruption, "\(round): \(error)")
        XCTAssertFalse(first || last, "\(round) answered \(interruption), so none of its products may be there")
        return false
    }

    private func lookUp(_ sku: String, on server: ServerProcess) -> Bool {
        server.sendLine(rpc("get", "catalog.get", ["sku": sku]))
        return server.readReplies(1)["get"]?["result"] != nil
    }

    private func kind(_ reply: [String: Any]) -> String {
        reply["result"] != nil ? "result" : ((reply["error"] as? [String: Any])?["data"] as? [String: Any])?["type"] as? String ?? "?"
    }

    private func upsert(_ id: String, round: String, deadlineMs: Int? = nil) -> String {
        let products = (1...Self.productsPerRound).map { n -> [String: Any] in
            ["sku": "\(round)-\(String(format: "%04d", n))", "name": "Round \(round) item \(n)", "category": "interruption",
             "priceCents": 100 + n, "stock": 1 + n % 5]
        }
        var params: [String: Any] = ["products": products]
        if let deadlineMs { params["_meta"] = ["deadlineMs": deadlineMs] }
        return rpc(id, "admin.products.upsert", params)
    }
}
