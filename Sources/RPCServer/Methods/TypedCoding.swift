/// How a method's typed params and results cross the `JSONValue` boundary, chosen once per method
/// when its `MethodSpec` is built rather than once per call.
///
/// A method's handler closure is generic over its params and result types but lives in this
/// module, so it runs unspecialised in the caller's: a per-call `value as? any
/// JSONValueConvertible` boxes the result into an existential (an allocation for any struct over
/// three words) and looks up the conformance, and `Decodable` goes through boxed containers and
/// generic metadata. Asking the *type* once, and keeping a closure for the answer, leaves each call
/// a same-type cast, which the runtime does as a copy. Stateless; any thread.
enum TypedCoding {
    /// Turns a `Result` into its JSON: `jsonValue` for a `JSONValueConvertible`, `JSONValueEncoder` otherwise.
    static func encoder<Result: Encodable>(for type: Result.Type) -> @Sendable (Result) throws -> JSONValue {
        if let convertible = type as? any JSONValueConvertible.Type { return convertingEncoder(convertible) }
        return { try JSONValueEncoder().encode($0) }
    }

    private static func convertingEncoder<Result, Convertible: JSONValueConvertible>(
        _: Convertible.Type
    ) -> @Sendable (Result) throws -> JSONValue {
        { ($0 as! Convertible).jsonValue }  // Result is Convertible: a same-type cast
    }

    /// Turns a request's params into `Params`: `init?(jsonValue:)` first for a `JSONValueDecodable`,
    /// `Decodable` otherwise or when that declines (so every error is `Decodable`'s, naming the field).
    static func decoder<Params: Decodable>(for type: Params.Type) -> @Sendable (JSONValue?) throws -> Params {
        if let direct = type as? any JSONValueDecodable.Type { return directDecoder(direct) }
        return { try ParamsDecoding.decode(Params.self, from: $0) }
    }

    private static func directDecoder<Params: Decodable, Direct: JSONValueDecodable>(
        _: Direct.Type
    ) -> @Sendable (JSONValue?) throws -> Params {
        { raw in
            if let params = Direct(jsonValue: raw ?? .object(JSONObject())) { return params as! Params }  // Params is Direct
            return try ParamsDecoding.decode(Params.self, from: raw)
        }
    }
}
