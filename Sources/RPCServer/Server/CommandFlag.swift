/// One flag of a command line, declared once with the type of its value: its spelling, how the
/// help shows it, whether it takes a value, whether it may be given more than once, the value it
/// has when absent, and how the text given becomes a `Value`. The text is read while parsing
/// (`ParsedCommandLine.parse`), so a bad value is a `UsageError` from the parser, and after parsing
/// every flag has a value of its type. Immutable; thread-safe.
///
/// ```swift
/// let database = CommandFlag<String?>("--db", valueName: "PATH", help: "the database file")
/// let pool = CommandFlag<Int>("--pool", help: "connections (default 4)", range: 1...64, absent: 4)
/// let readOnly = CommandFlag<Bool>(switch: "--read-only", help: "serve only what reads")
/// let parsed = try ParsedCommandLine.parse(arguments, flags: [database, pool, readOnly])
/// let path = parsed[database] ?? "notes.sqlite"  // parsed[pool] is an Int, parsed[readOnly] a Bool
/// ```
public struct CommandFlag<Value: Sendable>: AnyCommandFlag {
    public let declaration: CommandFlagDeclaration
    /// The flag's value when it is not given.
    public let absentValue: Value

    /// A flag that takes one value (`--flag VALUE`, `--flag=VALUE`), read by `read`, which throws
    /// a `UsageError` for text that is not a value; `absent` when the flag is not given.
    public init(_ name: String, valueName: String, help: String, absent: Value,
                read: @escaping @Sendable (String) throws(ServerOptions.UsageError) -> Value) {
        self.init(CommandFlagDeclaration(name: name, valueName: valueName, help: help, isRepeatable: false) { _, text throws(ServerOptions.UsageError) in
            try read(text)
        }, absent: absent)
    }

    private init(_ declaration: CommandFlagDeclaration, absent: Value) {
        self.declaration = declaration
        absentValue = absent
    }

    /// The flag's spelling (`--db`).
    public var name: String { declaration.name }
}

// MARK: - Kinds of flag

extension CommandFlag {
    /// A flag that takes one value, read by `read`; nil when it is not given.
    public init<Wrapped: Sendable>(_ name: String, valueName: String, help: String,
                                   read: @escaping @Sendable (String) throws(ServerOptions.UsageError) -> Wrapped) where Value == Wrapped? {
        self.init(name, valueName: valueName, help: help, absent: nil) { text throws(ServerOptions.UsageError) in try read(text) }
    }

    /// A flag that may be given any number of times, each value read by `read`; its value is every
    /// one given, in order (empty when it is not given). The help marks it "(repeatable)".
    public init<Element: Sendable>(repeatable name: String, valueName: String, help: String,
                                   read: @escaping @Sendable (String) throws(ServerOptions.UsageError) -> Element) where Value == [Element] {
        self.init(CommandFlagDeclaration(name: name, valueName: valueName, help: help, isRepeatable: true) { sofar, text throws(ServerOptions.UsageError) in
            ((sofar as? [Element]) ?? []) + [try read(text)]
        }, absent: [])
    }

    /// A flag whose value is one of `choices`' names (`--framing ndjson`), meaning that name's
    /// value; `absent` when it is not given. The help shows the names as the value
    /// (`auto|ndjson|lsp`); another name is a usage error listing them.
    public init(_ name: String, help: String, choices: KeyValuePairs<String, Value>, absent: Value) {
        let names = choices.map(\.key)
        let values = choices.map(\.value)
        self.init(name, valueName: names.joined(separator: "|"), help: help, absent: absent) { text throws(ServerOptions.UsageError) in
            guard let index = names.firstIndex(of: text) else {
                throw ServerOptions.UsageError("\(name) must be \(CommandFlagDeclaration.alternatives(names)), got '\(text)'")
            }
            return values[index]
        }
    }
}

extension CommandFlag where Value == String? {
    /// A flag whose value is any text (a path, a URI); nil when it is not given.
    public init(_ name: String, valueName: String, help: String) {
        self.init(name, valueName: valueName, help: help) { text throws(ServerOptions.UsageError) in text }
    }
}

extension CommandFlag where Value == Bool {
    /// A switch, which takes no value (`--read-only`): true when given. A value given to it
    /// (`--read-only=yes`) is a usage error.
    public init(switch name: String, help: String) {
        self.init(CommandFlagDeclaration(name: name, valueName: nil, help: help, isRepeatable: false) { _, _ in true }, absent: false)
    }
}

extension CommandFlag where Value == Int {
    /// A flag whose value is an integer in `range` (`--pool 8`), `absent` when not given; another
    /// text is a usage error naming the range.
    public init(_ name: String, valueName: String = "N", help: String, range: ClosedRange<Int>, absent: Int) {
        self.init(name, valueName: valueName, help: help, absent: absent) { text throws(ServerOptions.UsageError) in
            try CommandFlagDeclaration.integer(text, flag: name, in: range)
        }
    }
}

// MARK: - A command's table

/// A `CommandFlag` of any value type, as a command's table of flags lists them
/// (`[database, pool, readOnly]`).
public protocol AnyCommandFlag: Sendable {
    var declaration: CommandFlagDeclaration { get }
}

/// What the parser and the help know of a flag, whatever its value's type. Immutable.
public struct CommandFlagDeclaration: Sendable {
    /// The spelling (`--db`).
    public let name: String
    /// How the help names the value (`PATH`); nil for a switch, which takes none.
    public let valueName: String?
    public let help: String
    /// Whether it may be given more than once (each use adds to the others).
    public let isRepeatable: Bool
    /// The flag's value after one more use: from its value so far (nil at the first use) and the
    /// text given (`""` for a switch), as the `CommandFlag`'s `Value`.
    let use: @Sendable ((any Sendable)?, String) throws(ServerOptions.UsageError) -> any Sendable

    /// How the help lists it: `--db PATH`, `--read-only`.
    public var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }

    /// Its help text, marked "(repeatable)" when it is.
    public var helpText: String { isRepeatable ? "\(help) (repeatable)" : help }

    /// `a`, `a or b`, `a, b or c`: the names a value may take, in messages.
    static func alternatives(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// `text` as an integer in `range`; a usage error naming the range otherwise.
    static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(ServerOptions.UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw ServerOptions.UsageError("\(flag) needs an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }
}
