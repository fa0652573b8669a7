/// One stored property of a params struct, read and written through its byte offset in the struct
/// (`MemoryLayout.offset(of:)`), or through its key path where it has none (a computed property).
/// A key path applied at run time costs about 500 instructions; an offset access is a load or a
/// store, and `bench/instructions catalog.get` measures the difference on every request (see
/// bench/HISTORY.md, #44). Immutable; `Sendable`.
struct StoredMember<Root, Value>: Sendable {
    let path: WritableKeyPath<Root, Value> & Sendable
    /// The property's offset in `Root`'s memory; nil when it is not a stored property.
    let offset: Int?

    init(_ path: WritableKeyPath<Root, Value> & Sendable) {
        self.path = path
        offset = MemoryLayout<Root>.offset(of: path)
    }

    func get(_ root: Root) -> Value {
        guard let offset else { return root[keyPath: path] }
        // The property's memory is bound to `Value`, as every stored property's is.
        return withUnsafeBytes(of: root) { $0.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee }
    }

    func set(_ root: inout Root, _ value: Value) {
        guard let offset else { return root[keyPath: path] = value }
        withUnsafeMutableBytes(of: &root) { $0.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value }
    }
}
