/// A `text[]` parameter, `{"a","b"}`: every element quoted, a quote or backslash in it escaped
/// with a backslash. The elements are written as the store keeps strings (`PostgreSQLText`), and
/// the literal itself is sent as it is (not escaped again as a string parameter would be).
/// Immutable; `Sendable`.
struct PostgreSQLTextArray: PostgreSQLValue, Sendable {
    let postgresText: String?

    /// A literal as it is (elements that need no quoting, like integers).
    init(raw literal: String) {
        postgresText = literal
    }

    init(_ elements: [String]) {
        var literal = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { literal += "," }
            literal += "\""
            for scalar in PostgreSQLText.escaped(element).unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal += "\\" }
                literal.unicodeScalars.append(scalar)
            }
            literal += "\""
        }
        postgresText = literal + "}"
    }
}
