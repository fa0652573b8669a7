import RPCServer  // ServerOptions, HelpColumns

/// The command line of a command that takes operands as well as flags (`import FILE`, `export
/// WHAT`), parsed against the command's own flags (declared in `ShopFlags`): `--flag value`,
/// `--flag=value`, a switch alone, `--help`/`-h`; every other argument is an operand, in order
/// (`-` too: it names stdin), and so is everything after `--`. No side effects, so it can be tested.
struct CommandArguments {
    /// The flags' values, in the form the flag types read (`TextFlag.value(in:)` …).
    var options = ServerOptions()
    var operands: [String] = []
    var showHelp = false

    /// A command line that cannot be run; `description` says why, for stderr.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// - Throws: `UsageError` for an unknown flag, a missing value, a value given to
    ///   a switch, or a flag given twice.
    static func parse(_ arguments: [String], flags: [any ShopFlag]) throws(UsageError) -> CommandArguments {
        var parsed = CommandArguments()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                parsed.operands += remaining
                break
            }
            if argument == "--help" || argument == "-h" {
                parsed.showHelp = true
                continue
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.operands.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let flag = flags.first(where: { $0.flag == name }) else {
                throw UsageError( "unknown option \(argument)")
            }
            guard parsed.options.applicationValues[name] == nil else {
                throw UsageError( "\(name) is given twice")
            }
            if flag.option.valueName.isEmpty {
                guard inlineValue == nil else { throw UsageError( "\(name) takes no value") }
                parsed.options.applicationValues[name] = ""
            } else if let value = inlineValue ?? remaining.popFirst() {
                parsed.options.applicationValues[name] = value
            } else {
                throw UsageError( "\(name) needs a value")
            }
        }
        return parsed
    }

    /// A command's help: its synopsis, what its operands are, and each of its flags, in two
    /// columns (`HelpColumns`).
    static func usage(synopsis: String, operands: [HelpColumns.Row], flags: [any ShopFlag], notes: [String] = []) -> String {
        let flagRows = flags.map { flag in
            HelpColumns.Row(synopsis: flag.option.valueName.isEmpty ? flag.flag : "\(flag.flag) \(flag.option.valueName)", help: flag.option.help)
        } + [HelpColumns.Row(synopsis: "--help", help: "print this text and exit")]
        let sections = HelpColumns.sections([operands, flagRows])
        var lines = ["usage: \(synopsis)", "", "arguments:"] + sections[0] + ["", "options:"] + sections[1]
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n")
    }
}
