import Foundation
import XCTest

/// Scopes through the real binary over real pipes (`--allow`, `--read-only`): a call outside the
/// allowed scopes is refused with its scope and changes nothing, alone, in a batch, over LSP
/// framing and as an MCP tool call; the listings show only what is served; `--read-only` wins;
/// an unknown scope stops the server at start.
///
/// "Changes nothing" is checked on a store file after the refusing server has exited (every call
/// it took has ended): a second server, with every scope, finds the cart empty, the stock as
/// seeded and no order.
final class ScopeTests: XCTestCase {
    private var directory: URL!
    private var database: String { directory.appendingPathComponent("shop.sqlite").path }
    private let add = ["cartId": "c-1", "sku": "SKU-0002", "quantity": 2] as [String: Any]
    private let place = ["cartId": "c-1", "idempotencyKey": "k-1"]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-rpc-scopes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Ends `server`'s session (end of input: its calls finish) and waits for it to exit 0.
    private func finish(_ server: ServerProcess, file: StaticString = #filePath, line: UInt = #line) {
        server.closeInput()
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.stderrOutput, file: file, line: line)
    }

    /// Creates the demo store at `database` with a server of the default scopes, which exits at
    /// once: `--read-only` opens an existing store only.
    private func createStore(file: StaticString = #filePath, line: UInt = #line) throws {
        finish(try ServerProcess(["--db", database]), file: file, line: line)
    }

    /// Asserts, with a server allowed everything, that the refused writes left no trace: cart
    /// `c-1` empty, SKU-0002 at its seeded level, no order; and that a write works there.
    private func assertNothingChanged(file: StaticString = #filePath, line: UInt = #line) throws {
        let seeded = try ServerProcess(["--db", ":memory:"])
        seeded.sendLine(rpc(1, "inventory.check", ["skus": ["SKU-0002"]]))
        let seededLevel = try XCTUnwrap(levels(seeded.readJSON() as? [String: Any]), file: file, line: line)
        finish(seeded)

        let server = try ServerProcess(["--db", database, "--allow", "read,write"])
        server.sendLine(rpc(1, "cart.get", ["cartId": "c-1"]))
        server.sendLine(rpc(2, "inventory.check", ["skus": ["SKU-0002"]]))
        server.sendLine(rpc(3, "orders.list", [:]))
        let replies = server.readReplies(3)
        XCTAssertEqual((replies["1"]?.result?["lines"] as? [Any])?.count, 0, "the cart is empty", file: file, line: line)
        XCTAssertEqual(levels(replies["2"]), seededLevel, "no stock was taken", file: file, line: line)
        XCTAssertEqual((replies["3"]?.result?["items"] as? [Any])?.count, 0, "no order was placed", file: file, line: line)
        server.sendLine(rpc(4, "cart.add", add))
        XCTAssertEqual(((server.readJSON() as? [String: Any])?.result?["lines"] as? [Any])?.count, 1,
                       "the same write succeeds where the write scope is allowed", file: file, line: line)
        finish(server)
    }

    private func levels(_ reply: [String: Any]?) -> [Int]? {
        (reply?.result?["levels"] as? [[String: Any]])?.compactMap { $0["available"] as? Int }
    }

    private func assertRefused(_ reply: [String: Any]?, _ method: String, scope: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply?.errorCode, -32601, "\(reply ?? [:])", file: file, line: line)
        XCTAssertEqual(reply?.errorType, "MethodNotAllowed", file: file, line: line)
        XCTAssertEqual(reply?.errorData?["scope"] as? String, scope, file: file, line: line)
        XCTAssertEqual(reply?.errorData?["method"] as? String, method, file: file, line: line)
    }

    // MARK: - Refused calls do no work

    func test_readOnly_singleCalls_refusedWithTheirScope_andNothingChanges() throws {
        try createStore()
        let server = try ServerProcess(["--db", database, "--read-only"])
        server.sendLine(rpc(1, "cart.add", add))
        server.sendLine(rpc(2, "orders.place", place))
        server.sendLine(#"{"jsonrpc":"2.0","method":"cart.add","params":\#(jsonText(add))}"#)  // a notification
        server.sendLine(rpc(3, "catalog.get", ["sku": "SKU-0002"]))
        let replies = server.readReplies(3)
        assertRefused(replies["1"], "cart.add", scope: "write")
        assertRefused(replies["2"], "orders.place", scope: "write")
        XCTAssertEqual(replies["3"]?.result?["sku"] as? String, "SKU-0002", "reads are served")
        finish(server)
        XCTAssertEqual(server.remainingOutput(), "", "the refused notification got no reply")
        try assertNothingChanged()
    }

    /// The operator's methods are not among the default scopes (read, write): refused, nothing
    /// changes (the stock stays as seeded).
    func test_defaultScopes_refuseTheAdminMethods_andNothingChanges() throws {
        let server = try ServerProcess(["--db", database])
        server.sendLine(rpc(1, "admin.stock.adjust", ["sku": "SKU-0002", "delta": -5, "reason": "damaged"]))
        server.sendLine(rpc(2, "admin.stock.set", ["sku": "SKU-0002", "available": 0]))
        server.sendLine(rpc(3, "tools/call", ["name": "admin_stock_set", "arguments": ["sku": "SKU-0002", "available": 0]]))
        server.sendLine(rpc(4, "admin.products.archive", ["skus": ["SKU-0002"]]))
        server.sendLine(rpc(5, "admin.products.upsert", ["products": [["sku": "SKU-0002", "stock": 0]]]))
        server.sendLine(rpc(6, "catalog.get", ["sku": "SKU-0002"]))
        let replies = server.readReplies(6)
        assertRefused(replies["1"], "admin.stock.adjust", scope: "admin")
        assertRefused(replies["2"], "admin.stock.set", scope: "admin")
        XCTAssertEqual((replies["3"]?.result?["isError"] as? Bool), true, "\(replies["3"] ?? [:])")
        assertRefused(replies["4"], "admin.products.archive", scope: "admin")
        assertRefused(replies["5"], "admin.products.upsert", scope: "admin")
        XCTAssertEqual(replies["6"]?.result?["sku"] as? String, "SKU-0002", "still in the catalog")
        finish(server)
        try assertNothingChanged()
    }

    func test_readOnly_batch_refusedElementsInTheirSlots_andNothingChanges() throws {
        try createStore()
        let server = try ServerProcess(["--db", database, "--read-only"])
        server.sendLine("[" + [rpc("a", "cart.add", add), rpc("b", "cart.get", ["cartId": "c-1"]), rpc("c", "orders.place", place),
                               rpc("d", "ping")].joined(separator: ",") + "]")
        let batch = server.readJSON() as? [[String: Any]]
        XCTAssertEqual(batch?.map { $0["id"] as? String }, ["a", "b", "c", "d"])
        assertRefused(batch?[0], "cart.add", scope: "write")
        XCTAssertEqual((batch?[1].result?["lines"] as? [Any])?.count, 0)
        assertRefused(batch?[2], "orders.place", scope: "write")
        XCTAssertNotNil(batch?[3].result)
        finish(server)
        try assertNothingChanged()
    }

    func test_readOnly_lspFraming_refusedInAFrame_andNothingChanges() throws {
        try createStore()
        let server = try ServerProcess(["--db", database, "--read-only", "--framing", "lsp"])
        for (id, method, params) in [(1, "cart.add", add), (2, "orders.place", place as [String: Any])] {
            let body = rpc(id, method, params)
            server.send("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let frame = try XCTUnwrap(server.readFrame())
            assertRefused(try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any], method, scope: "write")
        }
        finish(server)
        try assertNothingChanged()
    }

    func test_readOnly_mcp_toolsListHasOnlyReads_andToolsCallOfAWriteIsAnErrorResult_andNothingChanges() throws {
        try createStore()
        let server = try ServerProcess(["--db", database, "--read-only"])
        server.sendLine(rpc(0, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any]()]))
        let initialize = (server.readJSON() as? [String: Any])?.result
        XCTAssertFalse((initialize?["instructions"] as? String ?? "orders_place").contains("orders_place"),
                       "the advice names no tool the server does not serve")
        server.sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        server.sendLine(rpc(1, "tools/list"))
        let tools = ((server.readJSON() as? [String: Any])?.result?["tools"] as? [[String: Any]]) ?? []
        XCTAssertEqual(tools.compactMap { $0["name"] as? String },
                       ["catalog_list", "catalog_count", "catalog_get", "catalog_product", "catalog_search", "inventory_check", "cart_get", "orders_get",
                        "orders_list"])
        for tool in tools {
            XCTAssertEqual((tool["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool, true, "\(tool["name"] ?? "")")
        }
        server.sendLine(rpc(2, "tools/call", ["name": "cart_add", "arguments": add]))
        server.sendLine(rpc(3, "tools/call", ["name": "orders_place", "arguments": place]))
        let replies = server.readReplies(2)
        for (id, method) in [("2", "cart.add"), ("3", "orders.place")] {
            let result = replies[id]?.result
            XCTAssertEqual(result?["isError"] as? Bool, true, "\(replies[id] ?? [:])")
            let error = (result?["structuredContent"] as? [String: Any])?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, -32601)
            XCTAssertEqual((error?["data"] as? [String: Any])?["scope"] as? String, "write")
            XCTAssertEqual((error?["data"] as? [String: Any])?["method"] as? String, method)
        }
        finish(server)
        try assertNothingChanged()
    }

    // MARK: - Listings and flags

    func test_discoverAndStats_listOnlyTheServedMethods_withTheirScopes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "write"])
        server.sendLine(rpc(1, "rpc.discover"))
        server.sendLine(rpc(2, "rpc.stats"))
        server.sendLine(rpc(3, "catalog.get", ["sku": "SKU-0002"]))
        let replies = server.readReplies(3)
        let methods = (replies["1"]?.result?["methods"] as? [[String: Any]]) ?? []
        XCTAssertEqual(methods.compactMap { $0["name"] as? String },
                       ["ping", "rpc.discover", "rpc.stats", "cart.add", "cart.remove", "cart.clear", "orders.place", "orders.cancel"])
        XCTAssertEqual(Set(methods.dropFirst(3).compactMap { $0["x-scope"] as? String }), ["write"])
        XCTAssertEqual((replies["2"]?.result?["methods"] as? [String: Any]).map { Set($0.keys) },
                       ["cart.add", "cart.remove", "cart.clear", "orders.place", "orders.cancel"])
        assertRefused(replies["3"], "catalog.get", scope: "browse")
        finish(server)
    }

    func test_readOnly_winsOverAllow_inEitherOrder() throws {
        for arguments in [["--read-only", "--allow", "read,write,admin"], ["--allow", "write", "--read-only"]] {
            let server = try ServerProcess(["--db", ":memory:"] + arguments)
            server.sendLine(rpc(1, "cart.add", add))
            server.sendLine(rpc(2, "cart.get", ["cartId": "c-1"]))
            let replies = server.readReplies(2)
            assertRefused(replies["1"], "cart.add", scope: "write")
            XCTAssertNotNil(replies["2"]?.result, "\(arguments)")
            finish(server)
        }
    }

    func test_defaultScopes_serveReadsAndWrites() throws {
        let server = try ServerProcess(["--db", ":memory:"])
        server.sendLine(rpc(1, "cart.add", add))
        server.sendLine(rpc(2, "catalog.get", ["sku": "SKU-0002"]))
        let replies = server.readReplies(2)
        XCTAssertNotNil(replies["1"]?.result)
        XCTAssertNotNil(replies["2"]?.result)
        finish(server)
    }

    func test_unknownScope_exitsTwoAtStart_beforeTheStoreIsCreated() throws {
        for arguments in [["--allow", "read,bogus"], ["--allow", ""], ["--read-only", "--allow", "admn"], ["--read-only=yes"]] {
            let process = try ServerProcess(["--db", database] + arguments)
            XCTAssertEqual(process.waitForExit(), 2, "\(arguments)")
            XCTAssertFalse(process.stderrOutput.isEmpty, "\(arguments) says why")
            XCTAssertFalse(FileManager.default.fileExists(atPath: database), "\(arguments) created no store")
        }
        let process = try ServerProcess(["--db", ":memory:", "--allow", "read,bogus"])
        XCTAssertEqual(process.waitForExit(), 2)
        XCTAssertTrue(process.stderrOutput.contains("--allow: unknown scope 'bogus'; the scopes are browse, read, write, admin"), process.stderrOutput)
    }

    // MARK: - Browse

    private let browseMethods = ["catalog.list", "catalog.count", "catalog.get", "catalog.product", "catalog.search", "inventory.check"]

    func test_allowBrowse_servesTheCatalogAlone_listsItAlone_andRefusesCartsAndOrdersWithTheirScope() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "browse"])
        server.sendLine(rpc(1, "rpc.discover"))
        server.sendLine(rpc(2, "catalog.get", ["sku": "SKU-0002"]))
        server.sendLine(rpc(3, "inventory.check", ["skus": ["SKU-0002"]]))
        server.sendLine(rpc(4, "cart.get", ["cartId": "c-1"]))
        server.sendLine(rpc(5, "orders.list", [:]))
        server.sendLine(rpc(6, "cart.add", add))
        let replies = server.readReplies(6)
        let methods = (replies["1"]?.result?["methods"] as? [[String: Any]]) ?? []
        XCTAssertEqual(methods.compactMap { $0["name"] as? String }, ["ping", "rpc.discover", "rpc.stats"] + browseMethods)
        XCTAssertEqual(Set(methods.dropFirst(3).compactMap { $0["x-scope"] as? String }), ["browse"])
        XCTAssertNotNil(replies["2"]?.result)
        XCTAssertNotNil(replies["3"]?.result)
        assertRefused(replies["4"], "cart.get", scope: "read")
        assertRefused(replies["5"], "orders.list", scope: "read")
        assertRefused(replies["6"], "cart.add", scope: "write")
        finish(server)
    }

    func test_allowBrowse_mcp_toolsListHasTheCatalogAlone_andACartToolIsAnErrorResult() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "browse"])
        server.sendLine(rpc(0, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any]()]))
        let instructions = (server.readJSON() as? [String: Any])?.result?["instructions"] as? String ?? "cart_add"
        XCTAssertFalse(instructions.contains("cart_add") || instructions.contains("orders_place"), instructions)
        server.sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        server.sendLine(rpc(1, "tools/list"))
        let tools = ((server.readJSON() as? [String: Any])?.result?["tools"] as? [[String: Any]]) ?? []
        XCTAssertEqual(tools.compactMap { $0["name"] as? String }, browseMethods.map { $0.replacingOccurrences(of: ".", with: "_") })
        server.sendLine(rpc(2, "tools/call", ["name": "cart_get", "arguments": ["cartId": "c-1"]]))
        let result = (server.readJSON() as? [String: Any])?.result
        XCTAssertEqual(result?["isError"] as? Bool, true)
        let error = (result?["structuredContent"] as? [String: Any])?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, -32601)
        XCTAssertEqual((error?["data"] as? [String: Any])?["scope"] as? String, "read")
        finish(server)
    }

    func test_readOnlyAndAllowRead_serveBrowseToo() throws {
        for arguments in [["--allow", "read"], ["--read-only"]] {
            let server = try ServerProcess(["--db", ":memory:"] + arguments)
            server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0002"]))
            server.sendLine(rpc(2, "cart.get", ["cartId": "c-1"]))
            let replies = server.readReplies(2)
            XCTAssertNotNil(replies["1"]?.result, "\(arguments)")
            XCTAssertNotNil(replies["2"]?.result, "\(arguments)")
            finish(server)
        }
    }

    func test_allowAdmin_isAKnownScope_andServesTodaysMethodsWithReadAndWrite() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        server.sendLine(rpc(1, "cart.add", add))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        finish(server)
    }
}
