/// A type that builds its own `JSONValue`, so encoding it skips the `Encoder` machinery (boxed
/// containers, generic metadata, a node per member), which costs several thousand instructions for
/// even a small struct. `JSONValueEncoder` uses `jsonValue` for such a value at any depth, so a
/// handler's hot result types can conform without changing how they are returned.
///
/// `jsonValue` must equal what `encode(to:)` produces (same members, same order, nil optionals
/// omitted); conforming types should have a test that compares the two.
///
/// A `SendableMetatype`: the engine asks a result's type once whether it conforms and keeps the
/// answer in a closure that runs on any thread (every concrete type qualifies).
///
/// ```swift
/// struct Greeting: Encodable, JSONValueConvertible {
///     var greeting: String
///     var jsonValue: JSONValue { ["greeting": .string(greeting)] }
/// }
/// ```
public protocol JSONValueConvertible: Encodable, SendableMetatype {
    var jsonValue: JSONValue { get }
}
