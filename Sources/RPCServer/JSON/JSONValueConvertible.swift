/// A type that builds its own `JSONValue`, so encoding it skips the `Encoder` machinery (boxed
/// containers, generic metadata, a node per member), which costs several thousand instructions for
/// even a small struct. `JSONValueEncoder` uses `jsonValue` for such a value at any depth, so a
/// handler's hot result types can conform without changing how they are returned.
///
/// `jsonValue` must equal what `encode(to:)` produces (same members, same order, nil optionals
/// omitted); conforming types should have a test that compares the two.
///
/// ```swift
/// struct Greeting: Encodable, JSONValueConvertible {
///     var greeting: String
///     var jsonValue: JSONValue { ["greeting": .string(greeting)] }
/// }
/// ```
public protocol JSONValueConvertible: Encodable {
    var jsonValue: JSONValue { get }
}
