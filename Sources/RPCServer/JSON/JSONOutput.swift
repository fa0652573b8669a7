/// Writes one JSON value as compact UTF-8 text, a token at a time: what a `JSONWritable` result
/// uses to put itself straight into its reply's bytes, without building a `JSONValue` first.
///
/// Strings are escaped as `JSONWriter` escapes them (never a raw newline, so the text stays one
/// NDJSON line); keys are `StaticString`s, escaped the same way. Commas and colons are written for
/// you. Every call is checked against the JSON grammar (a key only inside an object and before its
/// value, one top-level value, every container closed), cheaply, as it is made: `isComplete` says
/// whether the text is exactly one JSON value. A result whose writer breaks the grammar is not sent;
/// its request is answered with an internal error (-32603) instead. Nesting deeper than 64
/// containers is such a break (a `JSONValue` written with `value(_:)` counts as one token).
///
/// A value type; one thread at a time.
///
/// ```swift
/// extension Greeting: JSONWritable {
///     func write(to json: inout JSONOutput) {
///         json.beginObject()
///         json.member("greeting", greeting)
///         json.key("languages")
///         json.beginArray()
///         for language in languages { json.string(language) }
///         json.endArray()
///         json.endObject()
///     }
/// }
/// ```
public struct JSONOutput: Sendable {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// One bit per open container, innermost lowest: 1 for an object, 0 for an array.
    private var containers: UInt64 = 0
    private var depth = 0
    /// Nothing written yet in the innermost open container (or at the top level).
    private var atFirst = true
    /// A key was written and its value has not been.
    private var afterKey = false
    private var topLevelDone = false
    private var brokeGrammar = false

    /// An empty output; `capacity` bytes are reserved up front.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Whether exactly one complete JSON value has been written, every call following the grammar.
    public var isComplete: Bool { topLevelDone && depth == 0 && !brokeGrammar }

    // MARK: - Containers

    public mutating func beginObject() { open(object: true, UInt8(ascii: "{")) }
    public mutating func endObject() { close(object: true, UInt8(ascii: "}")) }
    public mutating func beginArray() { open(object: false, UInt8(ascii: "[")) }
    public mutating func endArray() { close(object: false, UInt8(ascii: "]")) }

    /// The next member's key, inside an object; its value must follow.
    public mutating func key(_ name: StaticString) {
        guard depth > 0, containers & 1 == 1, !afterKey else { return broke() }
        if !atFirst { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.writeString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        atFirst = false
        afterKey = true
    }

    // MARK: - Scalars and finished values

    public mutating func string(_ value: String) { token { JSONWriter.writeString(value, into: &$0) } }
    public mutating func int(_ value: Int) { token { JSONWriter.writeInteger(Int64(value), into: &$0) } }
    public mutating func double(_ value: Double) { token { JSONWriter.writeDouble(value, into: &$0) } }
    public mutating func bool(_ value: Bool) { token { JSONWriter.append(value ? "true" : "false", to: &$0) } }
    public mutating func null() { token { JSONWriter.append("null", to: &$0) } }

    /// A finished `JSONValue`, written whole.
    public mutating func value(_ value: JSONValue) { token { JSONWriter.write(value, into: &$0) } }

    /// A value that writes itself.
    public mutating func value<Value: JSONWritable>(_ value: Value) {
        value.write(to: &self)
    }

    // MARK: - Members (a key and its value)

    public mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// A member whose value writes itself.
    public mutating func member<Value: JSONWritable>(_ name: StaticString, _ value: Value) {
        key(name)
        value.write(to: &self)
    }

    /// A member whose value is an array of values that write themselves.
    public mutating func member<Elements: Sequence>(_ name: StaticString, array elements: Elements) where Elements.Element: JSONWritable {
        key(name)
        beginArray()
        for element in elements { element.write(to: &self) }
        endArray()
    }

    /// A member written only when `value` is not nil (as `Codable` omits a nil optional).
    public mutating func member(_ name: StaticString, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    // MARK: - Grammar

    /// One finished value (a scalar, or a `JSONValue` whole), written by `write` where the grammar allows one.
    private mutating func token(_ write: (inout [UInt8]) -> Void) {
        guard startValue() else { return }
        write(&bytes)
        endValue()
    }

    /// Writes the separator a value needs here, or records a break and returns false.
    private mutating func startValue() -> Bool {
        if depth == 0 {
            guard !topLevelDone else { broke(); return false }
        } else if containers & 1 == 1 {
            guard afterKey else { broke(); return false }
        } else if !atFirst {
            bytes.append(UInt8(ascii: ","))
        }
        return true
    }

    private mutating func endValue() {
        afterKey = false
        atFirst = false
        if depth == 0 { topLevelDone = true }
    }

    private mutating func open(object: Bool, _ bracket: UInt8) {
        guard depth < 64, startValue() else { return broke() }
        bytes.append(bracket)
        containers = containers << 1 | (object ? 1 : 0)
        depth += 1
        atFirst = true
        afterKey = false
    }

    private mutating func close(object: Bool, _ bracket: UInt8) {
        guard depth > 0, containers & 1 == (object ? 1 : 0), !afterKey else { return broke() }
        bytes.append(bracket)
        containers >>= 1
        depth -= 1
        endValue()
    }

    private mutating func broke() {
        brokeGrammar = true
    }
}

/// A type that writes its own JSON into a `JSONOutput`: a method returning it has its result
/// written straight into the reply, with no `Encoder` and no intermediate `JSONValue` (the fastest
/// way for a hot method's result). `write(to:)` must write exactly one value, and the same one its
/// `encode(to:)` produces (members in the same order, nil optionals omitted); conforming types
/// should have a test that compares the two. Its `jsonValue` is that text, parsed (for a
/// `JSONValueEncoder` or an MCP tool result; `null` if `write(to:)` breaks the grammar).
///
/// ```swift
/// struct Greeting: Encodable, JSONWritable {
///     var greeting: String
///     func write(to json: inout JSONOutput) {
///         json.beginObject()
///         json.member("greeting", greeting)
///         json.endObject()
///     }
/// }
/// ```
public protocol JSONWritable: JSONValueConvertible {
    func write(to json: inout JSONOutput)
}

extension JSONWritable {
    /// The compact JSON text `write(to:)` writes; nil if it breaks the grammar.
    package var writtenJSON: [UInt8]? {
        var output = JSONOutput()
        write(to: &output)
        return output.isComplete ? output.bytes : nil
    }

    public var jsonValue: JSONValue { writtenJSON.map { ResultJSON.text($0).jsonValue } ?? .null }
}
