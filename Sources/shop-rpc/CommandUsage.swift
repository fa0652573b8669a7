import RPCServer  // HelpColumns, CommandFlag

/// The help of a command that takes operands as well as flags (`import FILE`, `export WHAT`): its
/// synopsis, what its operands are, and each of its flags, in two columns (`HelpColumns`).
enum CommandUsage {
    static func text(synopsis: String, operands: [HelpColumns.Row], flags: [any AnyCommandFlag], notes: [String] = []) -> String {
        let flagRows = flags.map { HelpColumns.Row($0.declaration) } + [HelpColumns.Row(synopsis: "--help", help: "print this text and exit")]
        let sections = HelpColumns.sections([operands, flagRows])
        var lines = ["usage: \(synopsis)", "", "arguments:"] + sections[0] + ["", "options:"] + sections[1]
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n")
    }

    /// `arguments` parsed against a command's flags, operands allowed; a usage error says why,
    /// followed by the command's `usage`.
    static func parse(_ arguments: [String], flags: [any AnyCommandFlag], usage: String) throws(CommandFailure) -> ParsedCommandLine {
        do {
            return try ParsedCommandLine.parse(arguments, flags: flags, takesOperands: true)
        } catch {
            throw .usage("\(error)\n\(usage)")
        }
    }
}
