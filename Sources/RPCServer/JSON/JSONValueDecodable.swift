/// A params type that can read itself straight from the parsed JSON, skipping the `Decoder`
/// machinery (boxed containers, coding keys, generic metadata), which costs a couple of thousand
/// instructions per call even for a single member. The decoding counterpart of
/// `JSONValueConvertible`.
///
/// The engine tries `init?(jsonValue:)` first and decodes with `Decodable` whenever it returns nil,
/// so errors stay `Decodable`'s (a -32602 naming the field). An implementation therefore only needs
/// the valid shapes: return nil for anything else. When it returns a value, that value must equal
/// what `init(from:)` decodes from the same JSON (unknown members ignored, as `Decodable` does);
/// conforming types should have a test that compares the two, valid and invalid inputs alike.
///
/// A `SendableMetatype`: the engine asks a params type once whether it conforms and keeps the
/// answer in a closure that runs on any thread (every concrete type qualifies).
///
/// ```swift
/// struct Greet: Decodable, Sendable, JSONValueDecodable {
///     var name: String
///     init?(jsonValue: JSONValue) {
///         guard case .string(let name)? = jsonValue["name"] else { return nil }
///         self.name = name
///     }
/// }
/// ```
public protocol JSONValueDecodable: Decodable, SendableMetatype {
    /// The params `jsonValue` holds, or nil to let `Decodable` decode them (and explain what is wrong).
    init?(jsonValue: JSONValue)
}
