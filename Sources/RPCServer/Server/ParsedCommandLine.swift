/// A command line parsed against a table of typed flags (`CommandFlag`): each flag's value, the
/// operands, and whether help was asked for. Parsing has no side effects: it returns this or
/// throws a `UsageError`, and the program decides what to print and how to exit. Immutable once
/// parsed; thread-safe.
///
/// The syntax, for every command: `--flag VALUE` and `--flag=VALUE`; a switch alone; `--help` or
/// `-h` (any number of times) asks for help. A flag given twice is a usage error unless it is
/// declared repeatable. When the command takes operands, every other argument is one, in order
/// (`-` too: it names stdin), and so is everything after `--`; when it takes none, such an
/// argument is an unknown option.
///
/// ```swift
/// let format = CommandFlag<String?>("--format", valueName: "csv|ndjson", help: "the file's format")
/// let parsed = try ParsedCommandLine.parse(["--format=csv", "notes.csv"], flags: [format], takesOperands: true)
/// // parsed[format] == "csv", parsed.operands == ["notes.csv"]
/// ```
public struct ParsedCommandLine: Sendable {
    /// The arguments that are not flags, in order.
    public private(set) var operands: [String] = []
    /// Whether `--help` or `-h` was given.
    public private(set) var showHelp = false
    /// The value of each flag given, by name, as its `CommandFlag`'s `Value`.
    private var values: [String: any Sendable] = [:]

    /// An empty command line: no flag given, no operands.
    public init() {}

    /// The flag's value: the one given, or its `absentValue`.
    public subscript<Value>(flag: CommandFlag<Value>) -> Value {
        values[flag.name].flatMap { $0 as? Value } ?? flag.absentValue
    }

    /// Whether `flag` was given.
    public func isGiven(_ flag: any AnyCommandFlag) -> Bool {
        values[flag.declaration.name] != nil
    }

    /// Parses `arguments` against `flags`.
    /// - Parameters:
    ///   - arguments: the command line after the program's name (and the command's, if any).
    ///   - flags: every flag the command accepts; their names are distinct.
    ///   - takesOperands: whether arguments that are not flags are operands (`import FILE`) or,
    ///     when false, unknown options.
    /// - Throws: `UsageError` for an unknown flag, a missing value, a value given to a switch, a
    ///   value its flag cannot read, or a flag that is not repeatable given twice.
    public static func parse(_ arguments: [String], flags: [any AnyCommandFlag], takesOperands: Bool = false) throws(ServerOptions.UsageError) -> ParsedCommandLine {
        let declarations = flags.map(\.declaration)
        var parsed = ParsedCommandLine()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                parsed.showHelp = true
                continue
            }
            if takesOperands {
                if argument == "--" {
                    parsed.operands += remaining
                    break
                }
                if !argument.hasPrefix("-") || argument == "-" {
                    parsed.operands.append(argument)
                    continue
                }
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let flag = declarations.first(where: { $0.name == name }) else {
                throw ServerOptions.UsageError("unknown option \(argument)")
            }
            let sofar = parsed.values[name]
            guard sofar == nil || flag.isRepeatable else { throw ServerOptions.UsageError("\(name) is given twice") }
            let text: String
            if flag.valueName == nil {
                guard inlineValue == nil else { throw ServerOptions.UsageError("\(name) takes no value") }
                text = ""
            } else if let value = inlineValue ?? remaining.popFirst() {
                text = value
            } else {
                throw ServerOptions.UsageError("\(name) needs a value")
            }
            parsed.values[name] = try flag.use(sofar, text)
        }
        return parsed
    }
}
