/// How a method's typed params and results cross the `JSONValue` boundary: chosen on the method's
/// first call, then kept.
///
/// A method's handler closure is generic over its params and result types but lives in this
/// module, so it runs unspecialised in the caller's: `value as? any JSONValueConvertible` would box
/// the result into an existential (an allocation for any struct over three words), and `Decodable`
/// goes through boxed containers and generic metadata. Asking the *type* instead, once, and keeping
/// a closure for the answer leaves each call a same-type cast, which the runtime does as a copy.
/// Once on the first call (`FirstUse`), not when the method is built: a conformance the runtime has
/// not looked up yet is found by scanning every loaded image's conformance records, and two such
/// lookups per method before the first reply cost ~3.5 M instructions (~1 ms) of start-up; asked on
/// every call instead (a cached lookup), they cost ~1 k instructions a call. Stateless; any thread.
///
/// The closures it returns run on whichever thread runs a call, so the types they name must be
/// usable from any thread: `Params` and `Result` are `Sendable` (as every `MethodSpec` factory
/// requires), and the protocols they are asked for are `SendableMetatype`s.
enum TypedCoding {
    /// A result's JSON: the text a `JSONWritable` writes, `jsonValue` for a `JSONValueConvertible`,
    /// `JSONValueEncoder` otherwise.
    static func encoder<Result: Encodable & Sendable>(for type: Result.Type) -> FirstUse<@Sendable (Result) throws -> ResultJSON> {
        FirstUse {
            if let writable = type as? any JSONWritable.Type { return writingEncoder(writable) }
            if let convertible = type as? any JSONValueConvertible.Type { return convertingEncoder(convertible) }
            return { .value(try JSONValueEncoder().encode($0)) }
        }
    }

    /// Throws an internal error (-32603) for a writer that did not write exactly one JSON value.
    private static func writingEncoder<Result: Sendable, Writable: JSONWritable>(
        _: Writable.Type
    ) -> @Sendable (Result) throws -> ResultJSON {
        { result in
            guard let text = (result as! Writable).writtenJSON else {  // Result is Writable: a same-type cast
                throw RPCError.internalError("\(Writable.self).write(to:) did not write exactly one JSON value")
            }
            return .text(text)
        }
    }

    private static func convertingEncoder<Result: Sendable, Convertible: JSONValueConvertible>(
        _: Convertible.Type
    ) -> @Sendable (Result) throws -> ResultJSON {
        { .value(($0 as! Convertible).jsonValue) }  // Result is Convertible: a same-type cast
    }

    /// A request's params as `Params`: `init?(jsonValue:)` first for a `JSONValueDecodable`,
    /// `Decodable` otherwise or when that declines (so every error is `Decodable`'s, naming the field).
    static func decoder<Params: Decodable & Sendable>(for type: Params.Type) -> FirstUse<@Sendable (JSONValue?) throws -> Params> {
        FirstUse {
            if let direct = type as? any JSONValueDecodable.Type { return directDecoder(direct) }
            return { try ParamsDecoding.decode(Params.self, from: $0) }
        }
    }

    private static func directDecoder<Params: Decodable & Sendable, Direct: JSONValueDecodable>(
        _: Direct.Type
    ) -> @Sendable (JSONValue?) throws -> Params {
        { raw in
            if let params = Direct(jsonValue: ParamsDecoding.orEmptyObject(raw)) { return params as! Params }  // Params is Direct
            return try ParamsDecoding.decode(Params.self, from: raw)
        }
    }
}
