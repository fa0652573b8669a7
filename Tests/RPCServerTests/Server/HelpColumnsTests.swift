@testable import RPCServer
import XCTest

/// `HelpColumns`: a synopsis and its text are always at least two spaces apart, and the texts
/// start in one column.
final class HelpColumnsTests: XCTestCase {
    func test_rows_shareOneColumn_twoSpacesAfterTheWidestSynopsis() {
        let lines = HelpColumns.lines([.init(synopsis: "--a N", help: "first"), .init(synopsis: "--longer X", help: "second")])
        XCTAssertEqual(lines, ["  --a N       first", "  --longer X  second"])
    }

    func test_synopsisWiderThanTheLimit_standsAlone_itsTextOnTheNextLineInTheColumn() {
        let wide = String(repeating: "w", count: HelpColumns.maxSynopsisWidth + 1)
        let lines = HelpColumns.lines([.init(synopsis: "--n N", help: "short"), .init(synopsis: wide, help: "long")])
        XCTAssertEqual(lines, ["  --n N  short", "  " + wide, "         long"])
    }

    func test_engineUsage_listsEveryFlagItParses() throws {
        let usage = ServerOptions.usage(program: "x")
        for text in ["--framing=lsp", "--deadline=a=1", "--simulate-latency=a=0", "--max-inflight=2", "--max-message-bytes=9",
                     "--progress-interval-ms=5", "--shutdown-grace-ms=0", "--log-level=debug", "--trace=/dev/null"] {
            XCTAssertNoThrow(try ServerOptions.parse([text]), text)
            let flag = String(text.prefix { $0 != "=" })
            XCTAssertTrue(usage.contains("  \(flag) "), "\(flag) is in the usage")
        }
    }
}
