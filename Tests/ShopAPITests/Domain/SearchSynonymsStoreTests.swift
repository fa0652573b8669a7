import XCTest
import Foundation
@testable import ShopAPI

/// The owner's search synonyms are stored with the catalog, on both stores: none at first, what
/// was set after, replaced whole by the next set, removed by an empty one, and the same for a
/// second service on the same store (another process).
final class SearchSynonymsStoreTests: StoreContractTestCase {
    private func set(_ synonyms: SearchSynonyms) throws -> SearchSynonyms {
        try waitForResult { service.setSearchSynonyms(synonyms, interruption: nil, completion: $0) }.get()
    }

    func test_setAndGet_replaceWhole_andEmptyRemoves() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchSynonyms(interruption: nil), SearchSynonyms.none)
            let first = SearchSynonyms(groups: [["tee", "T-Shirt"], ["sofa", "couch", "settee"]],
                                       rules: [SearchSynonyms.Rule(input: "laptop", synonyms: ["notebook", "ultrabook"])])
            XCTAssertEqual(try set(first), first)
            XCTAssertEqual(try service.searchSynonyms(interruption: nil), first)
            let second = SearchSynonyms(groups: [["hoodie", "hooded-sweatshirt"]], rules: [])
            _ = try set(second)
            XCTAssertEqual(try service.searchSynonyms(interruption: nil), second, "a set replaces, it does not add")
            _ = try set(SearchSynonyms.none)
            XCTAssertEqual(try service.searchSynonyms(interruption: nil), SearchSynonyms.none)
        }
    }

    func test_aSecondServiceOnTheSameFile_seesTheSynonyms() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synonyms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.db").path
        service = try ShopService.open(path: path, creation: .demoCatalog)
        let synonyms = SearchSynonyms(groups: [["tee", "t-shirt"]], rules: [])
        _ = try set(synonyms)
        let other = try ShopService.open(path: path, creation: .demoCatalog)
        XCTAssertEqual(try other.searchSynonyms(interruption: nil), synonyms)
        service = nil
    }

    func test_firstProblem_namesTheMember() {
        XCTAssertNil(SearchSynonyms(groups: [["a", "b"]], rules: [SearchSynonyms.Rule(input: "x", synonyms: ["y"])]).firstProblem)
        XCTAssertEqual(SearchSynonyms(groups: [["a"]], rules: []).firstProblem?.member, "groups[0]")
        XCTAssertEqual(SearchSynonyms(groups: [["a", "--"]], rules: []).firstProblem?.member, "groups[0][1]")
        XCTAssertEqual(SearchSynonyms(groups: [["cafetiere", "french press"]], rules: []).firstProblem?.member, "groups[0][1]")
        XCTAssertEqual(SearchSynonyms(groups: [], rules: [SearchSynonyms.Rule(input: "x", synonyms: [])]).firstProblem?.member, "rules[0].synonyms")
        XCTAssertEqual(SearchSynonyms(groups: [], rules: [SearchSynonyms.Rule(input: String(repeating: "a", count: 65), synonyms: ["b"])])
            .firstProblem?.member, "rules[0].input")
        let many = Array(repeating: ["a", "b"], count: SearchSynonyms.maxEntries + 1)
        XCTAssertEqual(SearchSynonyms(groups: many, rules: []).firstProblem?.member, "groups")
    }
}
