import Foundation
import XCTest

/// `catalog.search` over the real binary's pipes, as a client sees it: a typo read as what was
/// meant, paging through every match with its total, facets over all of them, highlights as
/// UTF-16 offsets, unknown members refused on the methods that filter, the `search` section of
/// `rpc.stats`, and the owner's synonyms applied to the next search.
final class CatalogSearchWireTests: XCTestCase {
    private final class Client {
        let server: ServerProcess
        private var nextId = 0

        init(_ arguments: [String] = ["--db", ":memory:"]) throws {
            server = try ServerProcess(arguments)
        }

        func call(_ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
            nextId += 1
            server.sendLine(rpc(nextId, method, params))
            return server.readJSON() as? [String: Any] ?? [:]
        }

        func close() {
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
        }
    }

    /// `[{value|query, count}]` as "value:count" lines (JSON numbers come back as `NSNumber`).
    private func counts(_ value: Any?, key: String) -> [String] {
        (value as? [[String: Any]] ?? []).map { "\($0[key] as? String ?? "?"):\($0["count"] as? Int ?? -1)" }
    }

    private func skus(_ reply: [String: Any]) -> [String] {
        (reply.result?["items"] as? [[String: Any]] ?? []).compactMap { $0["sku"] as? String }
    }

    func test_aTypo_isReadAsWhatWasMeant_andSaysSo() throws {
        let client = try Client()
        defer { client.close() }
        let reply = client.call("catalog.search", ["query": "expresso roast"])
        XCTAssertFalse(skus(reply).isEmpty, "\(reply)")
        XCTAssertEqual(reply.result?["readAs"] as? String, "espresso roast")
        XCTAssertEqual(reply.result?["corrections"] as? [[String: String]], [["word": "expresso", "readAs": "espresso"]])
        let names = (reply.result?["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(names.first?.hasSuffix("Espresso Roast") == true, "\(names)")
    }

    func test_pagingWithAFilter_reachesEveryMatchOnce_andFacetsCountThemAll() throws {
        let client = try Client()
        defer { client.close() }
        let count = client.call("catalog.count", ["category": "coffee"]).result?["count"] as? Int ?? -1
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            var params: [String: Any] = ["query": "", "category": ["coffee"], "limit": 7, "facets": ["category", "brand"]]
            if let cursor { params["cursor"] = cursor }
            let page = client.call("catalog.search", params).result ?? [:]
            XCTAssertEqual(page["total"] as? Int, count)
            XCTAssertEqual(counts((page["facets"] as? [String: Any])?["category"], key: "value"), ["coffee:\(count)"])
            seen += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["sku"] as? String }
            cursor = page["nextCursor"] as? String
            pages += 1
        } while cursor != nil && pages < 1_000
        XCTAssertGreaterThan(count, 7)
        XCTAssertEqual(seen.count, count)
        XCTAssertEqual(Set(seen).count, count, "no product twice")
    }

    func test_highlights_areUTF16Offsets_ofWhatMatched() throws {
        let client = try Client()
        defer { client.close() }
        let item = (client.call("catalog.search", ["query": "french press", "highlight": true, "limit": 1]).result?["items"]
            as? [[String: Any]])?.first ?? [:]
        let name = item["name"] as? String ?? ""
        let ranges = (item["highlights"] as? [String: Any])?["name"] as? [[String: Int]] ?? []
        let utf16 = Array(name.utf16)
        let marked = ranges.compactMap { range -> String? in
            guard let start = range["start"], let end = range["end"], start < end, end <= utf16.count else { return nil }
            return String(decoding: utf16[start..<end], as: UTF16.self)
        }
        XCTAssertEqual(marked, ["French", "Press"], "\(name) \(ranges)")
        XCTAssertNil((client.call("catalog.search", ["query": "french press", "limit": 1]).result?["items"] as? [[String: Any]])?
            .first?["highlights"], "only when asked")
    }

    func test_unknownMembers_ofTheMethodsThatFilter_areInvalidParams_namingThem() throws {
        let client = try Client()
        defer { client.close() }
        for (method, member) in [("catalog.search", "categories"), ("catalog.list", "brand"), ("catalog.count", "query")] {
            var params: [String: Any] = [member: "x"]
            if method == "catalog.search" { params["query"] = "mug" }
            let reply = client.call(method, params)
            XCTAssertEqual(reply.errorCode, -32602, "\(method) \(reply)")
            XCTAssertEqual(reply.errorData?["field"] as? String, member, method)
        }
        XCTAssertNotNil(client.call("cart.get", ["cartId": "c", "extra": 1]).result, "other methods still ignore unknown members")
    }

    func test_stats_listTheSearchesThatFoundNothing() throws {
        let client = try Client()
        defer { client.close() }
        _ = client.call("catalog.search", ["query": "Zzyzx Qwop!"])
        _ = client.call("catalog.search", ["query": "zzyzx qwop"])
        _ = client.call("catalog.search", ["query": "grinder"])
        _ = client.call("catalog.search", ["query": ""])
        let search = (client.call("rpc.stats").result?["sections"] as? [String: Any])?["search"] as? [String: Any] ?? [:]
        XCTAssertEqual(search["searches"] as? Int, 3)
        XCTAssertEqual(search["withoutResults"] as? Int, 2)
        XCTAssertEqual(counts(search["topWithoutResults"], key: "query"), ["zzyzx qwop:2"])
    }

    func test_synonyms_setByTheOwner_applyToTheNextSearch() throws {
        let client = try Client(["--db", ":memory:", "--allow", "read,write,admin"])
        defer { client.close() }
        XCTAssertEqual(skus(client.call("catalog.search", ["query": "cafetiere"])), [])
        let stored = client.call("admin.search.synonyms.set", ["groups": [["cafetiere", "Press"]]])
        XCTAssertEqual(stored.result?["groups"] as? [[String]], [["cafetiere", "Press"]], "\(stored)")
        let found = client.call("catalog.search", ["query": "cafetiere"]).result ?? [:]
        let names = (found["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertFalse(names.isEmpty)
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix("French Press") }, "\(names)")
        XCTAssertNil(found["readAs"], "found through a synonym, not corrected")
        let refused = client.call("admin.search.synonyms.set", ["rules": [["input": "x", "synonyms": []]]])
        XCTAssertEqual(refused.errorData?["field"] as? String, "rules[0].synonyms")
        let twoWords = client.call("admin.search.synonyms.set", ["groups": [["cafetiere", "french press"]]])
        XCTAssertEqual(twoWords.errorData?["field"] as? String, "groups[0][1]", "a synonym is one word")
    }
}
