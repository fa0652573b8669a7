/// What a method does to the world, for hosts that show methods as tools (MCP's tool
/// `annotations`: `readOnlyHint`, `destructiveHint`, `idempotentHint`). Hints, not guarantees.
/// The defaults are MCP's: a tool may write, may destroy, and is not idempotent.
///
/// ```swift
/// let list = MethodSpec.async("notes.list", params: NoParams.self) { _, _ in notes }.hinting(.readOnly)
/// let add = MethodSpec.async("notes.add", params: Note.self) { note, _ in try save(note) }
///     .hinting(MethodHints(destructive: false, idempotent: false))
/// ```
public struct MethodHints: Sendable, Equatable {
    /// The method changes nothing.
    public var readOnly: Bool
    /// The method may remove or overwrite data (meaningful when it is not read-only).
    public var destructive: Bool
    /// Calling it again with the same arguments has no further effect.
    public var idempotent: Bool

    public init(readOnly: Bool = false, destructive: Bool = true, idempotent: Bool = false) {
        self.readOnly = readOnly
        self.destructive = destructive
        self.idempotent = idempotent
    }

    /// A method that only reads.
    public static let readOnly = MethodHints(readOnly: true, destructive: false, idempotent: true)
}
