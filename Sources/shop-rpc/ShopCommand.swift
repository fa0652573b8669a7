#if canImport(Glibc)
import Glibc  // exit
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RPCServer  // HelpColumns

/// shop-rpc's commands. The first argument names one; with none, or when the first argument is a
/// flag, the command is `serve`, so `shop-rpc [options]` serves exactly as `shop-rpc serve [options]`.
enum ShopCommand {
    /// Every command: its name, its one-line summary for `shop-rpc help`, and how it runs.
    static let commands: [Command] = [
        Command(name: "serve", summary: "serve the shop as JSON-RPC on stdin and stdout (the default)", run: ServeCommand.run),
        Command(name: "import", summary: "import a catalog file (CSV or NDJSON) into the store, all or nothing", run: ImportCommand.run),
        Command(name: "export", summary: "write the catalog, its stock or the orders to stdout as CSV or NDJSON", run: ExportCommand.run),
    ]

    /// One command: its name, its one-line summary, and its entry point, which takes the
    /// arguments after the name and ends the process.
    struct Command: Sendable {
        let name: String
        let summary: String
        let run: @Sendable ([String]) -> Never
    }

    /// Runs the command `arguments` name, with the rest of them; never returns. An unknown command
    /// prints the commands and exits 2.
    static func run(_ arguments: [String]) -> Never {
        guard let first = arguments.first, !first.hasPrefix("-") else {
            ServeCommand.run(arguments)
        }
        if first == "help" {
            print(overview)
            exit(0)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            exitWithMessage("unknown command '\(first)'\n\(overview)", status: 2)
        }
        command.run(Array(arguments.dropFirst()))
    }

    /// The commands and their summaries, for `shop-rpc help` and an unknown command.
    static var overview: String {
        let rows = commands.map { HelpColumns.Row(synopsis: $0.name, help: $0.summary) }
        return (["usage: shop-rpc [COMMAND] [options]", "", "commands:"] + HelpColumns.lines(rows)
            + ["", "'shop-rpc COMMAND --help' describes a command's options."]).joined(separator: "\n")
    }
}
