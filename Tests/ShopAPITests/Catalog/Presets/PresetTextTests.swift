import XCTest
@testable import ShopAPI

final class PresetTextTests: XCTestCase {
    func test_html_becomesPlainText_blocksAsLines_entitiesDecoded_scriptDropped() {
        XCTAssertEqual(HTMLText.plainText("<p>Soft &amp; warm.</p><p>Wash at 30&#176;C<br/>Made in &quot;EU&quot;</p>"),
                       "Soft & warm.\nWash at 30°C\nMade in \"EU\"")
        XCTAssertEqual(HTMLText.plainText("<ul><li>One</li>\n\n\n<li>Two</li></ul>"), "One\n\nTwo")
        XCTAssertEqual(HTMLText.plainText("a < b && c > d &unknown; <script>alert(1)</script>end"), "a < b && c > d &unknown; end")
        XCTAssertEqual(HTMLText.plainText("  plain text  "), "plain text")
        XCTAssertEqual(HTMLText.plainText("<p>unclosed <b"), "unclosed <b")
        XCTAssertEqual(HTMLText.plainText("&#0; &#x110000; &#xE9;"), "&#0; &#x110000; é")
    }

    func test_html_manyUnclosedTags_takeLinearTime() {
        let unclosed = String(repeating: "<a", count: 200_000)
        let started = ContinuousClock.now
        XCTAssertTrue(HTMLText.plainText(unclosed + " end") == unclosed + " end", "no > anywhere: all of it is text")
        XCTAssertEqual(HTMLText.plainText(unclosed + "<p>end"), "end", "as a browser reads it: one tag up to the first >")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20), "a scan to the end for each < would be 4·10^10 steps")
    }

    func test_price_acceptsDigitsWithOnePoint_only() {
        XCTAssertEqual(PresetText.price("19.99"), "19.99")
        XCTAssertEqual(PresetText.price(".5"), "0.5")
        XCTAssertEqual(PresetText.price("45."), "45")
        XCTAssertEqual(PresetText.price("0"), "0")
        for bad in ["", ".", "-1", "1,5", "1.2.3", "1e3", "$5", " 5", String(repeating: "9", count: 41)] {
            XCTAssertNil(PresetText.price(bad), bad)
        }
    }

    func test_stock_readsWholeNumbers_belowZeroAsZero() {
        XCTAssertEqual(PresetText.stock("12")?.level, "12")
        XCTAssertEqual(PresetText.stock("007")?.level, "7")
        XCTAssertEqual(PresetText.stock("-4")?.level, "0")
        XCTAssertEqual(PresetText.stock("-4")?.wasNegative, true)
        XCTAssertEqual(PresetText.stock("-0")?.wasNegative, false)
        for bad in ["", "-", "1.5", "ten", String(repeating: "9", count: 16)] {
            XCTAssertNil(PresetText.stock(bad), bad)
        }
    }

    func test_trimmed_removesUnicodeWhiteSpaceAtEitherEnd_only() {
        XCTAssertEqual(PresetText.trimmed("Blue"), "Blue")
        XCTAssertEqual(PresetText.trimmed(" \tBlue Navy\u{00A0}\r\n"), "Blue Navy")
        XCTAssertEqual(PresetText.trimmed("\u{3000}日本\u{3000}"), "日本")
        XCTAssertEqual(PresetText.trimmed("é "), "é")
        XCTAssertEqual(PresetText.trimmed(" \n "), "")
        XCTAssertEqual(PresetText.trimmed(""), "")
    }

    func test_canonicalRecord_keepsEachColumnApart_andListsThemInColumnOrder() {
        var record = CanonicalCatalogRecord(line: 7)
        for column in CanonicalColumn.allCases.reversed() { record[column] = column.rawValue.uppercased() }
        XCTAssertEqual(record.givenValues.map(\.column), CanonicalColumn.allCases)
        XCTAssertEqual(record.givenValues.map(\.value), CanonicalColumn.allCases.map { $0.rawValue.uppercased() })
        record[.brand] = nil
        XCTAssertNil(record[.brand])
        XCTAssertEqual(record.givenValues.count, CanonicalColumn.allCases.count - 1)
    }

    func test_slug() {
        XCTAssertEqual(PresetText.slug("Blue / XL"), "blue-xl")
        XCTAssertEqual(PresetText.slug("--Größe 42--"), "größe-42")
        XCTAssertEqual(PresetText.slug("///"), "")
    }

    func test_derivedIdentifiers_areUnique_stable_andFitSixtyFourCharacters() {
        var ids = DerivedIdentifiers()
        ids.register("shirt-red")
        XCTAssertEqual(ids.make(base: "shirt", parts: ["Red"]), "shirt-red-2")
        XCTAssertEqual(ids.make(base: "shirt", parts: ["Red"]), "shirt-red-3")
        XCTAssertEqual(ids.make(base: "shirt", parts: ["", "Blue"]), "shirt-blue")
        let long = String(repeating: "x", count: 70)
        var first = DerivedIdentifiers(), second = DerivedIdentifiers()
        let made = first.make(base: long, parts: ["a"])
        XCTAssertEqual(made.count, 64)
        XCTAssertEqual(made, second.make(base: long, parts: ["a"]), "the same file makes the same SKUs")
        XCTAssertNotEqual(made, first.make(base: long, parts: ["b"]))
    }

    func test_derivedIdentifiers_manyEqualBases_takeLinearTime() {
        var ids = DerivedIdentifiers()
        let made = (0..<100_000).map { _ in ids.make(base: "mug", parts: []) }
        XCTAssertEqual(made.prefix(3), ["mug", "mug-2", "mug-3"])
        XCTAssertEqual(made.last, "mug-100000")
        XCTAssertEqual(Set(made).count, made.count)
    }
}
