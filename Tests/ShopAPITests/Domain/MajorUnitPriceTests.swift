import XCTest
@testable import ShopAPI

/// `MajorUnitPrice` and `CurrencyExponent`: prices in a currency's units read exactly, by the
/// currency's ISO 4217 exponent, never through floating point.
final class MajorUnitPriceTests: XCTestCase {
    private func minor(_ text: String, _ currency: String) -> Result<Int, MajorUnitPrice.ParseError> {
        MajorUnitPrice.parse(Array(text.utf8)).flatMap { $0.minorUnits(exponent: CurrencyExponent(code: currency)!, currency: currency) }
    }

    func test_exponents_followISO4217() {
        XCTAssertEqual(CurrencyExponent(code: "USD")?.digits, 2)
        XCTAssertEqual(CurrencyExponent(code: "EUR")?.digits, 2)
        XCTAssertEqual(CurrencyExponent(code: "JPY")?.digits, 0)
        XCTAssertEqual(CurrencyExponent(code: "KRW")?.digits, 0)
        XCTAssertEqual(CurrencyExponent(code: "ISK")?.digits, 0)
        XCTAssertEqual(CurrencyExponent(code: "KWD")?.digits, 3)
        XCTAssertEqual(CurrencyExponent(code: "BHD")?.digits, 3)
        XCTAssertEqual(CurrencyExponent(code: "CLF")?.digits, 4)
        XCTAssertEqual(CurrencyExponent(code: "HUF")?.digits, 2)
        XCTAssertNil(CurrencyExponent(code: "XAU"), "gold has no minor unit")
        XCTAssertNil(CurrencyExponent(code: "ABC"))
        XCTAssertEqual(CurrencyExponent(code: "KWD")?.minorUnitsPerMajorUnit, 1000)
    }

    func test_ownerPrices_inUSD_areExact() {
        XCTAssertEqual(try minor("17.99", "USD").get(), 1799)
        XCTAssertEqual(try minor("25", "USD").get(), 2500, "a whole number is whole dollars, not cents")
        XCTAssertEqual(try minor("45.00", "USD").get(), 4500, "WooCommerce's hoodie")
        XCTAssertEqual(try minor("0.1", "USD").get(), 10)
        XCTAssertEqual(try minor("19.99", "USD").get(), 1999)
        XCTAssertEqual(try minor("0.29", "USD").get(), 29, "0.29 is 0.28999… in binary floating point")
        XCTAssertEqual(try minor("1.005", "KWD").get(), 1005)
    }

    func test_JPYAndKWD_useTheirOwnExponent() {
        XCTAssertEqual(try minor("500", "JPY").get(), 500)
        XCTAssertEqual(try minor("1.234", "KWD").get(), 1234)
        XCTAssertEqual(try minor("1.2", "KWD").get(), 1200)
        XCTAssertEqual(try minor("1.2345", "CLF").get(), 12345)
    }

    func test_moreDecimalsThanTheCurrencyHas_isAnError() {
        XCTAssertEqual(minor("17.999", "USD"), .failure(.init(message: "17.999 has 3 decimals, but USD has 2 decimals")))
        XCTAssertEqual(minor("500.5", "JPY"), .failure(.init(message: "500.5 has 1 decimal, but JPY has no minor unit")))
        XCTAssertEqual(minor("45.000", "USD"), .failure(.init(message: "45.000 has 3 decimals, but USD has 2 decimals")),
                       "a trailing zero counts: the text says more than the currency can")
        XCTAssertEqual(minor("1.2345", "KWD"), .failure(.init(message: "1.2345 has 4 decimals, but KWD has 3 decimals")))
    }

    func test_textThatIsNotAPrice_isAnError() {
        for text in ["", "-1", "-0.5", "1,5", "1.2.3", ".5", "5.", "1e3", "+1", " 1", "1 ", "$1", "0x10", "١"] {
            if case .success(let price) = MajorUnitPrice.parse(Array(text.utf8)) { XCTFail("\(text.debugDescription) read as \(price)") }
        }
        XCTAssertEqual(MajorUnitPrice.parse(Array("1,5".utf8)),
                       .failure(.init(message: "\"1,5\" is not a price such as 19.99 (write the decimal point as . and no thousands separator)")))
        XCTAssertEqual(MajorUnitPrice.parse(Array("-3".utf8)), .failure(.init(message: "\"-3\" is negative")))
    }

    func test_largePrices_neverOverflow_andTheRangeIsKept() {
        XCTAssertEqual(try minor("10000000000", "USD").get(), CatalogLimits.maxPriceCents, "ten billion dollars is the maximum")
        XCTAssertEqual(minor("10000000000.01", "USD"),
                       .failure(.init(message: "10000000000.01 USD is above the maximum, 1000000000000 minor units")))
        XCTAssertEqual(try minor("1000000000000", "JPY").get(), CatalogLimits.maxPriceCents)
        XCTAssertEqual(MajorUnitPrice.parse(Array("99999999999999999999999999".utf8)),
                       .failure(.init(message: "\"99999999999999999999999999\" is above the maximum price")))
        guard case .failure(let error) = MajorUnitPrice.parse(Array(("1." + String(repeating: "0", count: 40)).utf8)) else {
            return XCTFail("40 decimals read")
        }
        XCTAssertTrue(error.message.hasSuffix("has too many decimals"), error.message)
        if case .success = minor("1000000000000", "CLF") { XCTFail("10^12 CLF is 10^16 minor units, over the range") }
    }
}
