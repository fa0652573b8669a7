import Foundation
import XCTest

/// Thousands of requests of every kind through the real binary, with faults mixed in: slow calls,
/// short deadlines, cancels at random moments (also for ids not in flight, and twice), reused ids,
/// batches, notifications, oversized and garbled frames, and input that ends mid-frame. Then the
/// invariants a client relies on are checked on everything that came back. Seeded, so a failure
/// can be replayed; nothing depends on how fast the machine is.
final class SoakTests: XCTestCase {
    /// What one id was used for, so each reply can be checked against its request.
    private struct Expectation {
        var method: String
        var sent = 0
    }

    func test_soak_mixedTrafficWithFaults_keepsEveryInvariant() throws {
        var random = SeededRandom(seed: 0x5EED_2026)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("soak.sqlite").path
        let server = try ServerProcess([
            "--db", database, "--max-inflight", "64", "--max-message-bytes", "65536",
            "--simulate-latency", "catalog.list=40", "--progress-interval-ms", "10",
        ])

        var expected: [String: Expectation] = [:]  // by the id's JSON text
        var orderKeys: [String: String] = [:]  // id → idempotency key of an orders.place
        var lines: [String] = []
        var nextID = 0
        var recentIDs: [(id: String, method: String)] = []

        func request(_ method: String, _ params: String, id: String? = nil) -> String {
            let id = id ?? { nextID += 1; return String(nextID) }()
            expected[id, default: Expectation(method: method)].sent += 1
            recentIDs.append((id, method))
            if recentIDs.count > 50 { recentIDs.removeFirst() }
            return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
        }

        let skus = (1...240).map { String(format: "SKU-%04d", $0) }
        for step in 0..<3000 {
            let sku = skus[random.next(below: skus.count)]
            let cart = "soak-\(random.next(below: 20))"
            switch random.next(below: 20) {
            case 0...3:
                lines.append(request("catalog.get", #"{"sku":"\#(sku)"}"#))
            case 4:
                lines.append(request("catalog.list", #"{"limit":2}"#))  // slow (40 ms)
            case 5:
                // A slow call with a deadline it cannot meet: -32001 naming catalog.list.
                lines.append(request("catalog.list", #"{"limit":1,"_meta":{"deadlineMs":\#(1 + random.next(below: 15))}}"#))
            case 6:
                lines.append(request("inventory.check", #"{"skus":["\#(sku)","\#(skus[0])"],"_meta":{"progressToken":"p\#(step)"}}"#))
            case 7...8:
                lines.append(request("cart.add", #"{"cartId":"\#(cart)","sku":"\#(sku)","quantity":\#(1 + random.next(below: 3))}"#))
            case 9:
                let key = "key-\(step)"
                let line = request("orders.place", #"{"cartId":"\#(cart)","idempotencyKey":"\#(key)"}"#)
                orderKeys[String(nextID)] = key
                lines.append(line)
            case 10:
                // Cancel something recent (in flight or not), sometimes twice, sometimes an id never sent.
                let target = random.next(below: 4) == 0 ? "\"never-\(step)\"" : (recentIDs.randomElement(using: &random)?.id ?? "0")
                let cancel = #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(target)}}"#
                lines.append(cancel)
                if random.next(below: 3) == 0 { lines.append(cancel) }
            case 11:
                // Reuse a recent id with the same method: a DuplicateId (id null) if it is still
                // in use, an ordinary second reply if it is not.
                if let reused = recentIDs.last(where: { $0.method == "catalog.list" }) {
                    lines.append(request("catalog.list", #"{"limit":1}"#, id: reused.id))
                }
            case 12:
                let first = request("ping", "{}")
                let second = request("catalog.get", #"{"sku":"\#(sku)"}"#)
                lines.append("[\(first),\(second),{\"jsonrpc\":\"2.0\",\"method\":\"cart.get\",\"params\":{\"cartId\":\"x\"}}]")
            case 13:
                lines.append(#"{"jsonrpc":"2.0","method":"catalog.get","params":{"sku":"\#(sku)"}}"#)  // notification
            case 14:
                lines.append(request("catalog.search", #"{"query":"\#(["guide", "tea", "mug", "zz"][random.next(below: 4)])","limit":3}"#))
            case 15:
                // Oversized (over --max-message-bytes) and garbled frames: id-null errors.
                if random.next(below: 10) == 0 {
                    lines.append(#"{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":""# + String(repeating: "x", count: 70_000) + "\"}}")
                } else {
                    lines.append(String((0..<(1 + random.next(below: 40))).map { _ in Character(UnicodeScalar(UInt8(32 + random.next(below: 95)))) }))
                }
            case 16:
                lines.append(request("no.such.method", "{}"))
            case 17:
                lines.append(request("cart.add", #"{"cartId":"\#(cart)","sku":"\#(sku)","quantity":"many"}"#))
            default:
                lines.append(request("ping", "{}"))
            }
        }

        // Writing and reading at once, as a client does: the server pauses reading when 64 calls
        // are in flight, and replies must keep flowing meanwhile.
        let writer = Thread { [lines] in
            for line in lines { server.sendLine(line) }
            server.send(#"{"jsonrpc":"2.0","id":"tail","method":"pi"#)  // input ends mid-frame
            server.closeInput()
        }
        writer.start()
        let output = server.remainingOutput(timeout: 240)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.stderrOutput)
        for trap in ["Fatal error", "Program crashed", "SIGSEGV", "AddressSanitizer", "ThreadSanitizer"] {
            XCTAssertFalse(server.stderrOutput.contains(trap), server.stderrOutput)
        }

        // Every reply, batch elements unpacked; progress notifications set aside.
        var replies: [[String: Any]] = []
        for line in output.split(separator: "\n") {
            guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
                XCTFail("not JSON: \(line.prefix(200))")
                continue
            }
            if let batch = value as? [[String: Any]] {
                replies += batch
            } else if let object = value as? [String: Any], object["method"] == nil {
                replies.append(object)
            }
        }

        var answered: [String: Int] = [:]
        var rejectedAsDuplicate: [String: Int] = [:]
        var acknowledgedOrders: [String] = []
        for reply in replies {
            XCTAssertEqual(reply["jsonrpc"] as? String, "2.0")
            XCTAssertTrue((reply["result"] == nil) != (reply["error"] == nil), "exactly one of result and error: \(reply)")
            let error = reply["error"] as? [String: Any]
            let data = error?["data"] as? [String: Any]
            XCTAssertNotEqual(reply.errorCode, -32603, "no internal error for bad input: \(reply)")
            if let error { XCTAssertNotNil(data?["type"] as? String, "every error is typed: \(error)") }
            guard let id = reply["id"], !(id is NSNull) else {
                if reply.errorType == "DuplicateId", let duplicate = data?["id"] {
                    rejectedAsDuplicate[idKey(duplicate), default: 0] += 1
                }
                continue
            }
            let key = idKey(id)
            answered[key, default: 0] += 1
            if let method = expected[key]?.method, let code = reply.errorCode, code == -32001 || code == -32800 {
                XCTAssertEqual(data?["method"] as? String, method, "a deadline or cancel names the right method: \(reply)")
            }
            if orderKeys[key] != nil, let orderId = reply.result?["orderId"] as? String { acknowledgedOrders.append(orderId) }
        }

        // Exactly one reply per request: each request with an id was answered under its id or
        // rejected as a duplicate (id null, naming it), and nothing else came back under an id.
        for (id, expectation) in expected {
            XCTAssertEqual(answered[id, default: 0] + rejectedAsDuplicate[id, default: 0], expectation.sent,
                           "id \(id) (\(expectation.method)): sent \(expectation.sent)")
        }
        XCTAssertEqual(Set(answered.keys).subtracting(expected.keys), [], "replies under ids never sent")
        XCTAssertGreaterThan(acknowledgedOrders.count, 0, "the mix placed orders")
        XCTAssertGreaterThan(rejectedAsDuplicate.values.reduce(0, +), 0, "the mix hit the duplicate rule")

        // No acknowledged order lost: a fresh process on the same file finds each one.
        let reader = try ServerProcess(["--db", database])
        for (index, orderId) in acknowledgedOrders.enumerated() { reader.sendLine(rpc(index, "orders.get", ["orderId": orderId])) }
        let found = reader.readReplies(acknowledgedOrders.count)
        for (index, orderId) in acknowledgedOrders.enumerated() {
            XCTAssertEqual(found["\(index)"]?.result?["orderId"] as? String, orderId)
        }
        reader.closeInput()
        XCTAssertEqual(reader.waitForExit(), 0)
    }

    func test_sigterm_withHundredsInFlight_answersEachOnce_andKeepsAcknowledgedOrders() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("term.sqlite").path
        let server = try ServerProcess(["--db", database, "--simulate-latency", "catalog.list=60000", "--shutdown-grace-ms", "300"])
        server.sendLine(rpc("a", "cart.add", ["cartId": "t", "sku": "SKU-0003", "quantity": 1]))
        server.sendLine(rpc("o", "orders.place", ["cartId": "t", "idempotencyKey": "term-1"]))
        for id in 0..<400 { server.sendLine(rpc(id, "catalog.list", ["limit": 1])) }
        server.sendLine(rpc("up", "ping"))
        var early: [[String: Any]] = []
        while let reply = server.readJSON() as? [String: Any] {
            early.append(reply)
            if reply["id"] as? String == "up" { break }  // every line before it has been read
        }
        server.process.terminate()
        let rest = server.remainingOutput(timeout: 30).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(server.waitForExit(), 0)
        let all = early + rest
        let slow = all.filter { $0["id"] is Int }
        XCTAssertEqual(slow.count, 400)
        XCTAssertEqual(Set(slow.compactMap { $0["id"] as? Int }).count, 400, "one reply per id")
        for reply in slow {
            XCTAssertEqual(reply.errorType, "ShuttingDown", "\(reply)")
            XCTAssertEqual(reply.errorData?["method"] as? String, "catalog.list")
        }
        // If the order was acknowledged before the signal, it survived.
        if let orderId = all.first(where: { $0["id"] as? String == "o" })?.result?["orderId"] as? String {
            let reader = try ServerProcess(["--db", database])
            reader.sendLine(rpc(1, "orders.get", ["orderId": orderId]))
            XCTAssertEqual(reader.readReplies(1)["1"]?.result?["orderId"] as? String, orderId)
            reader.closeInput()
            XCTAssertEqual(reader.waitForExit(), 0)
        }
    }

    func test_clientClosingStdoutDuringALargeReply_endsTheServerCleanly() throws {
        // Our own pipes here: the read end of stdout is read by this thread only, so closing it
        // really closes it, while the server is writing 200-product pages into the pipe.
        let process = Process()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = ["--db", ":memory:"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for id in 0..<200 {
            input.fileHandleForWriting.write(Data((rpc(id, "catalog.list", ["limit": 200]) + "\n").utf8))
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
        XCTAssertGreaterThan(count, 0, "the server started writing")
        try output.fileHandleForReading.close()  // mid-reply: the pipe holds far more than 4 KiB by now
        let limit = Date().addingTimeInterval(20)
        while process.isRunning, Date() < limit { usleep(2000) }
        XCTAssertFalse(process.isRunning, "the server noticed the closed stdout and exited")
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        let stderrText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(stderrText.contains("stdout closed"), stderrText)
        XCTAssertFalse(stderrText.contains("Fatal error"), stderrText)
    }

    /// An id as the request wrote it (JSONSerialization's numbers also cast to Bool, so no `jsonText`).
    private func idKey(_ id: Any) -> String {
        if let string = id as? String { return jsonText(string) }
        return "\(id)"
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-rpc-soak-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
