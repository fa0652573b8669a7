/// The server's method table: name → `MethodSpec`, with command-line deadline overrides applied,
/// and the server's own sections of `rpc.stats` (`addStatsSection`).
/// Built once before serving, then read-only (`Sendable`, lock-free reads from any queue). Every
/// method is served as JSON-RPC and, in an MCP session, as a tool named with `_` for `.`.
///
/// ```swift
/// var registry = MethodRegistry([greet, slow])
/// registry.register(.async("hello.ping", params: NoParams.self) { _, _ in EmptyResult() })
/// ```
public struct MethodRegistry: Sendable {
    public private(set) var methods: [String: MethodSpec] = [:]
    /// Names in registration order (for `rpc.discover`).
    public private(set) var names: [String] = []

    public init(_ specs: [MethodSpec] = []) {
        for spec in specs { register(spec) }
    }

    /// Adds or replaces a method.
    public mutating func register(_ spec: MethodSpec) {
        if methods[spec.name] == nil { names.append(spec.name) }
        methods[spec.name] = spec
    }

    /// Replaces the deadline of `method`; returns false if there is no such method.
    @discardableResult
    public mutating func overrideDeadline(_ method: String, milliseconds: Int) -> Bool {
        guard methods[method] != nil else { return false }
        methods[method]!.deadlineMs = milliseconds
        return true
    }

    public subscript(name: String) -> MethodSpec? { methods[name] }

    // MARK: - Statistics

    /// Sections added to the `rpc.stats` result, in the order they were first added.
    package private(set) var statsSections: [StatsSection] = []

    /// Adds a section named `name` to every `rpc.stats` result (under `sections`), computed by
    /// `snapshot` when the call arrives; adding a name again replaces its closure.
    ///
    /// ```swift
    /// var registry = MethodRegistry(specs)
    /// let cache = NoteCache()
    /// registry.addStatsSection("cache") {
    ///     ["entries": .int(Int64(cache.count)), "hits": .int(Int64(cache.hits))]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the section's key in `sections` (protocol.md, section 6.2).
    ///   - snapshot: returns the section's current figures. It runs on the engine's reader queue,
    ///     which reads every request: keep it quick (a lock and a few counters) and never block.
    public mutating func addStatsSection(_ name: String, _ snapshot: @escaping @Sendable () -> JSONValue) {
        let section = StatsSection(name: name, snapshot: snapshot)
        if let index = statsSections.firstIndex(where: { $0.name == name }) {
            statsSections[index] = section
        } else {
            statsSections.append(section)
        }
    }
}
