/// A params member's name as a coding key, for the `Decodable` conformance `DeclaredParams`
/// derives from its fields.
struct ParamKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
