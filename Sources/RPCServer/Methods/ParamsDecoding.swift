/// Decodes a request's params into a handler's typed params, and turns decoding failures into
/// `-32602` errors that name the field at fault.
enum ParamsDecoding {
    static func decode<Params: Decodable>(_ type: Params.Type, from params: JSONValue?) throws -> Params {
        do {
            return try JSONValueDecoder().decode(type, from: orEmptyObject(params))
        } catch let error as DecodingError {
            throw invalidParams(error)
        }
    }

    /// The params a handler's type reads: absent params (JSON-RPC allows leaving them out) are an
    /// empty object.
    static func orEmptyObject(_ params: JSONValue?) -> JSONValue {
        params ?? .object([:])
    }

    static func invalidParams(_ error: DecodingError) -> RPCError {
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalidParams("missing member '\(field)'", field: field)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let field = path(context.codingPath)
            if field.isEmpty { return .invalidParams(context.debugDescription) }
            return .invalidParams("'\(field)': \(context.debugDescription)", field: field)
        @unknown default:
            return .invalidParams("\(error)")
        }
    }

    /// `items[2].sku` style path.
    static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }
}
