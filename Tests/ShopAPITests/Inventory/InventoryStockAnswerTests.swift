import Dispatch
import Foundation
import XCTest
@testable import ShopAPI

/// The upstream contract: the request URL shop-rpc builds, and which `200` bodies it accepts.
final class InventoryStockAnswerTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:8080/inventory")!

    // MARK: - Request URL

    func test_requestURL_hasOneSkuParameterPerDistinctSku_percentEncoded_inRequestOrder() {
        let skus = InventoryStockAnswer.distinct(["B-2", "a&b c=d+e/é#", "B-2", "A-1"])
        XCTAssertEqual(skus, ["B-2", "a&b c=d+e/é#", "A-1"])
        let url = InventoryStockAnswer.requestURL(base: base, skus: skus)
        XCTAssertEqual(url?.absoluteString,
                       "http://127.0.0.1:8080/inventory/stock?sku=B-2&sku=a%26b%20c%3Dd%2Be%2F%C3%A9%23&sku=A-1")
    }

    func test_requestURL_baseWithTrailingSlashOrQuery_keepsBoth() {
        XCTAssertEqual(InventoryStockAnswer.requestURL(base: URL(string: "https://inv.example/")!, skus: ["X"])?.absoluteString,
                       "https://inv.example/stock?sku=X")
        XCTAssertEqual(InventoryStockAnswer.requestURL(base: URL(string: "https://inv.example/v1?key=k")!, skus: ["X"])?.absoluteString,
                       "https://inv.example/v1/stock?key=k&sku=X")
    }

    func test_usableBaseURL_isHttpOrHttpsWithAHost() {
        XCTAssertTrue(HTTPInventorySource.isUsableBaseURL(URL(string: "http://127.0.0.1:9")!))
        XCTAssertTrue(HTTPInventorySource.isUsableBaseURL(URL(string: "HTTPS://inv.example/base")!))
        XCTAssertFalse(HTTPInventorySource.isUsableBaseURL(URL(string: "ftp://inv.example")!))
        XCTAssertFalse(HTTPInventorySource.isUsableBaseURL(URL(string: "file:///tmp/x")!))
        XCTAssertFalse(HTTPInventorySource.isUsableBaseURL(URL(string: "inv.example")!))
        XCTAssertFalse(HTTPInventorySource.isUsableBaseURL(URL(string: "http://inv.example/#x")!))
    }

    // MARK: - Answers accepted

    func test_levels_answerInAnyOrder_isReturnedInRequestOrder_withDuplicatesAnsweredEachTime() throws {
        let body = Data(#"{"levels":[{"sku":"B","available":0},{"sku":"A","available":3}],"extra":true}"#.utf8)
        let levels = try InventoryStockAnswer.levels(from: body, asked: ["A", "B", "A"])
        XCTAssertEqual(levels, InventoryLevels(levels: [StockLevel(sku: "A", available: 3), StockLevel(sku: "B", available: 0),
                                                        StockLevel(sku: "A", available: 3)]))
    }

    // MARK: - Answers refused

    func test_levels_everyAnswerThatCouldShowAWrongNumber_isInventoryUnavailable() {
        let asked = ["A", "B"]
        let refused: [(String, String)] = [
            ("truncated JSON", #"{"levels":[{"sku":"A","#),
            ("not JSON", "<html>busy</html>"),
            ("empty body", ""),
            ("no levels member", #"{"stock":[]}"#),
            ("levels not an array", #"{"levels":{}}"#),
            ("unknown sku", #"{"levels":[{"sku":"A","available":1},{"sku":"B","available":1},{"sku":"C","available":1}]}"#),
            ("missing sku", #"{"levels":[{"sku":"A","available":1}]}"#),
            ("duplicated sku", #"{"levels":[{"sku":"A","available":1},{"sku":"A","available":1},{"sku":"B","available":1}]}"#),
            ("negative count", #"{"levels":[{"sku":"A","available":-1},{"sku":"B","available":1}]}"#),
            ("fractional count", #"{"levels":[{"sku":"A","available":2.5},{"sku":"B","available":1}]}"#),
            ("count as a string", #"{"levels":[{"sku":"A","available":"3"},{"sku":"B","available":1}]}"#),
            ("count as a boolean", #"{"levels":[{"sku":"A","available":true},{"sku":"B","available":1}]}"#),
            ("count too large", #"{"levels":[{"sku":"A","available":1e30},{"sku":"B","available":1}]}"#),
            ("null count", #"{"levels":[{"sku":"A","available":null},{"sku":"B","available":1}]}"#),
            ("sku as a number", #"{"levels":[{"sku":1,"available":1},{"sku":"B","available":1}]}"#),
        ]
        for (name, body) in refused {
            XCTAssertThrowsError(try InventoryStockAnswer.levels(from: Data(body.utf8), asked: asked), name) { error in
                guard case let .inventoryUnavailable(detail, status)? = error as? ShopError else {
                    return XCTFail("\(name): \(error) is not inventoryUnavailable")
                }
                XCTAssertEqual(status, 200, name)
                XCTAssertFalse(detail.isEmpty, name)
            }
        }
    }

    func test_levels_hostileSkuInAnswer_isShortenedInTheDetail() {
        let long = String(repeating: "x", count: 10_000)
        let body = Data(#"{"levels":[{"sku":"\#(long)","available":1}]}"#.utf8)
        XCTAssertThrowsError(try InventoryStockAnswer.levels(from: body, asked: ["A"])) { error in
            guard case let .inventoryUnavailable(detail, _)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertLessThan(detail.count, 200)
        }
    }
}
