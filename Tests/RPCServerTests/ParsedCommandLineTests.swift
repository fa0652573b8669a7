import XCTest
@testable import RPCServer

/// The one command-line parser (`ParsedCommandLine.parse`) over a table of typed flags
/// (`CommandFlag`): values come out typed or the parse throws a `UsageError`; nothing exits.
final class ParsedCommandLineTests: XCTestCase {
    private let database = CommandFlag<String?>("--db", valueName: "PATH", help: "the store")
    private let pool = CommandFlag<Int>("--pool", help: "connections", range: 1...64, absent: 4)
    private let readOnly = CommandFlag<Bool>(switch: "--read-only", help: "serve only what reads")
    private let format = CommandFlag<Framing?>("--format", help: "the format", choices: ["ndjson": .ndjson, "lsp": .lsp], absent: nil)
    private let tag = CommandFlag<[String]>(repeatable: "--tag", valueName: "NAME", help: "a tag") { text throws(ServerOptions.UsageError) in text }
    private var table: [any AnyCommandFlag] { [database, pool, readOnly, format, tag] }

    private func parse(_ arguments: [String], takesOperands: Bool = true) throws(ServerOptions.UsageError) -> ParsedCommandLine {
        try ParsedCommandLine.parse(arguments, flags: table, takesOperands: takesOperands)
    }

    private func usageError(_ arguments: [String], takesOperands: Bool = true) -> String? {
        do {
            _ = try parse(arguments, takesOperands: takesOperands)
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: - Typed values

    func test_flagsNotGiven_haveTheirAbsentValues() throws {
        let parsed = try parse([])
        XCTAssertNil(parsed[database])
        XCTAssertEqual(parsed[pool], 4)
        XCTAssertFalse(parsed[readOnly])
        XCTAssertNil(parsed[format])
        XCTAssertEqual(parsed[tag], [])
        XCTAssertFalse(parsed.isGiven(pool))
        XCTAssertFalse(parsed.showHelp)
        XCTAssertEqual(parsed.operands, [])
    }

    func test_givenFlags_areReadAsTheirTypes_inBothSpellings() throws {
        let parsed = try parse(["--db", "a.sqlite", "--pool=8", "--read-only", "--format", "lsp"])
        XCTAssertEqual(parsed[database], "a.sqlite")
        XCTAssertEqual(parsed[pool], 8)
        XCTAssertTrue(parsed[readOnly])
        XCTAssertEqual(parsed[format], .lsp)
        XCTAssertTrue(parsed.isGiven(pool))
        XCTAssertEqual(try parse(["--db=x=y"])[database], "x=y", "the value is everything after the first =")
        XCTAssertEqual(try parse(["--db", "--pool"])[database], "--pool", "a value may look like a flag")
    }

    func test_repeatableFlag_collectsEveryValue_inOrder() throws {
        XCTAssertEqual(try parse(["--tag", "a", "--tag=b", "--tag", "a"])[tag], ["a", "b", "a"])
    }

    // MARK: - Usage errors, thrown and never exiting

    func test_flagGivenTwice_isAUsageErrorNamingIt_evenWithTheSameValue() {
        XCTAssertEqual(usageError(["--db", "a", "--db=a"]), "--db is given twice")
        XCTAssertEqual(usageError(["--pool", "2", "--pool", "3"]), "--pool is given twice")
        XCTAssertEqual(usageError(["--read-only", "--read-only"]), "--read-only is given twice")
    }

    func test_valueTheFlagCannotRead_isAUsageErrorSayingWhatItTakes() {
        XCTAssertEqual(usageError(["--pool", "0"]), "--pool needs an integer from 1 to 64, got '0'")
        XCTAssertEqual(usageError(["--pool", "eight"]), "--pool needs an integer from 1 to 64, got 'eight'")
        XCTAssertEqual(usageError(["--format", "xml"]), "--format must be ndjson or lsp, got 'xml'")
    }

    func test_missingValue_valueGivenToASwitch_andUnknownFlag_areUsageErrors() {
        XCTAssertEqual(usageError(["--db"]), "--db needs a value")
        XCTAssertEqual(usageError(["--read-only=yes"]), "--read-only takes no value")
        XCTAssertEqual(usageError(["--frobnicate"]), "unknown option --frobnicate")
        XCTAssertEqual(usageError(["--frobnicate=1"]), "unknown option --frobnicate=1")
    }

    // MARK: - Help and operands

    func test_help_inEitherSpelling_anyNumberOfTimes_onlySetsShowHelp() throws {
        let parsed = try parse(["-h", "--db", "x", "--help"])
        XCTAssertTrue(parsed.showHelp)
        XCTAssertEqual(parsed[database], "x")
    }

    func test_operands_keepTheirOrder_includingDash_andEverythingAfterDoubleDash() throws {
        let parsed = try parse(["a", "--pool", "2", "-", "b", "--", "--db", "-h"])
        XCTAssertEqual(parsed.operands, ["a", "-", "b", "--db", "-h"])
        XCTAssertEqual(parsed[pool], 2)
        XCTAssertNil(parsed[database])
        XCTAssertFalse(parsed.showHelp, "-h after -- is an operand")
    }

    func test_commandWithoutOperands_refusesThemAsUnknownOptions() {
        XCTAssertEqual(usageError(["notes.csv"], takesOperands: false), "unknown option notes.csv")
        XCTAssertEqual(usageError(["--"], takesOperands: false), "unknown option --")
    }

    // MARK: - ServerOptions over the same parser

    func test_serverOptions_readsTypedApplicationFlags_besideTheEngines() throws {
        let options = try ServerOptions.parse(["--pool", "9", "--log-level", "debug", "--read-only", "--deadline", "a=5"], flags: [pool, readOnly])
        XCTAssertEqual(options.flags[pool], 9)
        XCTAssertTrue(options.flags[readOnly])
        XCTAssertEqual(options.logLevel, .debug)
        XCTAssertEqual(options.deadlineOverrides.map(\.method), ["a"])
        XCTAssertTrue(options.applicationValues.isEmpty, "typed flags' values are in `flags`")
        XCTAssertThrowsError(try ServerOptions.parse(["operand"], flags: [pool]))
    }

    func test_serverOptionsUsage_listsTypedFlagsFirst_andMarksRepeatableOnes() {
        let lines = ServerOptions.usage(program: "x", flags: [pool, tag]).split(separator: "\n").map(String.init)  // usage, options:, then the rows
        XCTAssertTrue(lines[2].hasPrefix("  --pool N "), "\(lines)")
        XCTAssertTrue(lines[3].hasPrefix("  --tag NAME ") && lines[3].hasSuffix("a tag (repeatable)"), "\(lines)")
    }
}
