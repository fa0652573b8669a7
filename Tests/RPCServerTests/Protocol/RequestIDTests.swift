import XCTest
@testable import RPCServer

/// When two ids are the same id (duplicate checks, cancellation): by value, never across types.
final class RequestIDTests: XCTestCase {
    private func id(_ text: String) -> RequestID? {
        guard case .single(let element) = MessageDecoder.decode(Array(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#.utf8)) else { return nil }
        if case .request(let request) = element { return request.id }
        return nil
    }

    func test_numbersWithTheSameValue_areTheSameId_withTheSameHash() {
        let groups = [["1", "1.0", "1e0", "10e-1", "0.1e1"], ["0", "-0", "-0.0", "0e5"], ["-7", "-7.00"],
                      ["4503599627370496", "4503599627370496.0", "4.503599627370496e15"], ["1.5", "15e-1"]]
        for group in groups {
            let ids = group.map { id($0) }
            for other in ids {
                XCTAssertEqual(ids[0], other, "\(group)")
                XCTAssertEqual(ids[0].map { Set([$0]) }, other.map { Set([$0]) }, "\(group)")
            }
        }
    }

    func test_differentValues_andStringsVersusNumbers_areDifferentIds() {
        XCTAssertNotEqual(id("1"), id("2"))
        XCTAssertNotEqual(id("1"), id(#""1""#))
        XCTAssertNotEqual(id("1"), id("1.5"))
        XCTAssertNotEqual(id("null"), id(#""null""#))
        XCTAssertNotEqual(id("9223372036854775807"), id("9223372036854775806"))
        XCTAssertEqual(Set([id("1"), id("1.0"), id(#""1""#)]).count, 2)
    }

    func test_numericIdsOfMagnitude2To63OrMore_areInvalidRequestsWithIdNull() {
        for text in ["9223372036854775808", "18446744073709551615", "-9223372036854775809", "1e19", "-1e300", "1e999"] {
            guard case .single(.invalid(let error, let id)) = MessageDecoder.decode(Array(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#.utf8)) else {
                return XCTFail("\(text) was accepted as an id")
            }
            XCTAssertEqual(error.code, .invalidRequest, text)
            XCTAssertNil(id, text)
        }
    }
}
