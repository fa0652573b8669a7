import RPCServer  // HelpColumns, StdioServer

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
    /// arguments after the name and returns the exit status, or throws why it could not run.
    /// A command never ends the process itself.
    struct Command: Sendable {
        let name: String
        let summary: String
        let run: @Sendable ([String]) throws(CommandFailure) -> Int32
    }

    /// Runs the command `arguments` name and ends the process: the one way shop-rpc ends, for
    /// every command, called by `main` only. A `CommandFailure` is printed to stderr and its
    /// status is the exit status. The end is `StdioServer.exitProcess` (stdio flushed, then
    /// `_exit`), never `exit()`: other threads may still run (a handler past its deadline, an
    /// import's reading thread blocked in `read`), and `exit()` tears down state under them.
    static func main(_ arguments: [String]) -> Never {
        let status: Int32
        do {
            status = try run(arguments)
        } catch {
            writeToStandardError(error.message)
            status = error.status
        }
        StdioServer.exitProcess(status: status)
    }

    /// Runs the command `arguments` name, with the rest of them, and returns its exit status; an
    /// unknown command is a usage error listing the commands.
    static func run(_ arguments: [String]) throws(CommandFailure) -> Int32 {
        guard let first = arguments.first, !first.hasPrefix("-") else {
            return try ServeCommand.run(arguments)
        }
        if first == "help" {
            print(overview)
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw .usage("unknown command '\(first)'\n\(overview)")
        }
        return try command.run(Array(arguments.dropFirst()))
    }

    /// The commands and their summaries, for `shop-rpc help` and an unknown command.
    static var overview: String {
        let rows = commands.map { HelpColumns.Row(synopsis: $0.name, help: $0.summary) }
        return (["usage: shop-rpc [COMMAND] [options]", "", "commands:"] + HelpColumns.lines(rows)
            + ["", "'shop-rpc COMMAND --help' describes a command's options."]).joined(separator: "\n")
    }
}
