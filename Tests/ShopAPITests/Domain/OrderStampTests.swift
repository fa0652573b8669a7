import Foundation
import XCTest
@testable import ShopAPI

/// Order ids and timestamps, as both stores stamp new orders.
final class OrderStampTests: XCTestCase {
    func test_timestamp_isISO8601InUTCWithMilliseconds() {
        // (In this test process XCTest links all of Foundation, whose time zone database hides a
        // zone Essentials alone cannot find: the real binary placing orders covers that.)
        let date = Date(timeIntervalSince1970: 1_795_428_000.125)
        XCTAssertEqual(OrderStamp.timestamp(date), "2026-11-23T10:00:00.125Z")
        XCTAssertEqual(OrderStamp.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    }

    func test_randomOrderId_isOrdUnderscoreAnd16LowercaseHexDigits() {
        let id = OrderStamp.randomOrderId()
        XCTAssertTrue(id.hasPrefix("ord_"))
        XCTAssertEqual(id.count, 20)
        XCTAssertTrue(id.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) }, id)
    }
}
