import XCTest

/// The help the real binary prints: every command's, every line of it laid out in two columns, and
/// every flag the binary accepts listed once.
final class CommandLineHelpTests: XCTestCase {
    /// Every flag `shop-rpc serve` accepts (the engine's and the shop's); adding a flag without
    /// listing it here fails `test_serveHelp_listsEveryFlagOnce`.
    private let serveFlags = [
        "--db", "--db-pool", "--allow", "--read-only", "--customer", "--inventory-url", "--inventory-max-concurrent", "--inventory-circuit-failures",
        "--inventory-circuit-cooldown-ms", "--inventory-stale-ms", "--inventory-limit", "--inventory-coalesce",
        "--framing", "--deadline", "--simulate-latency", "--max-inflight", "--max-message-bytes",
        "--progress-interval-ms", "--shutdown-grace-ms", "--log-level", "--trace",
    ]

    private func output(_ arguments: [String]) throws -> (stdout: String, status: Int32?) {
        let process = try ServerProcess(arguments)
        let text = process.remainingOutput()
        return (text, process.waitForExit())
    }

    func test_serveHelp_isTheSameAsTheDefaultCommands_andExitsZero() throws {
        let bare = try output(["--help"])
        let serve = try output(["serve", "--help"])
        XCTAssertEqual(bare.status, 0)
        XCTAssertEqual(serve.status, 0)
        XCTAssertEqual(bare.stdout, serve.stdout)
        XCTAssertTrue(bare.stdout.hasPrefix("usage: shop-rpc [serve] [options]\n"), bare.stdout)
    }

    func test_serveHelp_listsEveryFlagOnce() throws {
        let help = try output(["--help"]).stdout
        let synopses = Self.optionRows(help).map(\.synopsis)
        for flag in serveFlags {
            XCTAssertEqual(synopses.filter { $0 == flag || $0.hasPrefix(flag + " ") }.count, 1, "\(flag) in\n\(help)")
        }
        XCTAssertEqual(synopses.count, serveFlags.count + 1, "one row per flag, and --help, --version:\n\(help)")
    }

    func test_importAndExportHelp_listEveryFlagOnce_andTheirArguments() throws {
        for (command, flags, operands) in [
            ("import", ["--db", "--format", "--from", "--currency", "--replace", "--dry-run", "--strict", "--map", "--ignore-unknown", "--delimiter", "--encoding"], ["FILE|-"]),
            ("export", ["--db", "--format", "--since"], ["products", "stock", "orders", "ledger"]),
        ] {
            let help = try output([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.hasPrefix("usage: shop-rpc \(command) "), help.stdout)
            let synopses = Self.optionRows(help.stdout).map(\.synopsis)
            for flag in flags + ["--help"] {
                XCTAssertEqual(synopses.filter { $0 == flag || $0.hasPrefix(flag + " ") }.count, 1, "\(command): \(flag) in\n\(help.stdout)")
            }
            XCTAssertEqual(synopses, operands + synopses.dropFirst(operands.count), "\(command): its arguments first")
            XCTAssertEqual(synopses.count, operands.count + flags.count + 1, "\(command):\n\(help.stdout)")
        }
        let overview = try output(["help"]).stdout
        XCTAssertEqual(Self.commandNames(overview), ["serve", "import", "export"])
    }

    func test_everyHelpLine_hasAtLeastTwoSpacesBetweenSynopsisAndText() throws {
        for arguments in [["--help"], ["help"]] + Self.commandNames(try output(["help"]).stdout).map({ [$0, "--help"] }) {
            let help = try output(arguments)
            XCTAssertEqual(help.status, 0, "\(arguments)")
            let rows = Self.optionRows(help.stdout)
            XCTAssertFalse(rows.isEmpty, "\(arguments) lists options or commands:\n\(help.stdout)")
            for row in rows {
                XCTAssertFalse(row.text.isEmpty, "\(arguments): '\(row.synopsis)' has a text")
                XCTAssertGreaterThanOrEqual(row.gap, 2, "\(arguments): '\(row.synopsis)' runs into its text")
            }
            // The texts start in one column.
            XCTAssertEqual(Set(rows.map(\.textColumn)).count, 1, "\(arguments):\n\(help.stdout)")
        }
    }

    func test_unknownCommand_listsTheCommands_andExitsTwo() throws {
        let process = try ServerProcess(["frobnicate"])
        XCTAssertEqual(process.waitForExit(), 2)
        XCTAssertTrue(process.stderrOutput.contains("unknown command 'frobnicate'"), process.stderrOutput)
        XCTAssertTrue(process.stderrOutput.contains("  serve  "), process.stderrOutput)
    }

    func test_integerFlag_outOfRange_namesItsRange_andExitsTwo() throws {
        let process = try ServerProcess(["--db", ":memory:", "--db-pool", "0"])
        XCTAssertEqual(process.waitForExit(), 2)
        XCTAssertTrue(process.stderrOutput.contains("--db-pool needs an integer from 1 to 256, got '0'"), process.stderrOutput)
    }

    // MARK: - Reading help text

    /// One option or command row: its synopsis, the spaces after it, its text and the column the
    /// text starts in. A synopsis too wide for the column stands alone, its text on the next line.
    struct Row {
        var synopsis: String
        var gap: Int
        var text: String
        var textColumn: Int
    }

    /// The rows of every section ("options:", "commands:") of a help text.
    static func optionRows(_ help: String) -> [Row] {
        var rows: [Row] = []
        var inSection = false
        var pendingSynopsis: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasSuffix(":"), !line.hasPrefix(" ") {
                inSection = true
                continue
            }
            guard inSection, line.hasPrefix("  ") else {
                inSection = inSection && !line.isEmpty
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if indent > 2 {
                // The text of a synopsis that stood alone on the line before.
                if let synopsis = pendingSynopsis {
                    rows.append(Row(synopsis: synopsis, gap: indent - 2 - synopsis.count, text: String(body), textColumn: indent))
                    pendingSynopsis = nil
                }
                continue
            }
            if let range = body.range(of: "  ") {
                let synopsis = String(body[..<range.lowerBound])
                let rest = body[range.lowerBound...]
                let gap = rest.prefix { $0 == " " }.count
                rows.append(Row(synopsis: synopsis, gap: gap, text: String(rest.dropFirst(gap)), textColumn: 2 + synopsis.count + gap))
            } else {
                pendingSynopsis = String(body)
            }
        }
        return rows
    }

    /// The command names `shop-rpc help` lists.
    static func commandNames(_ overview: String) -> [String] {
        optionRows(overview).map(\.synopsis)
    }
}
