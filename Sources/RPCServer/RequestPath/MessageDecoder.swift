/// Turns the bytes of one framed message into an `IncomingMessage` in one pass: parse once, then
/// classify every element per JSON-RPC 2.0. Never throws: what is wrong becomes an `.invalid`
/// element carrying the exact error to send. Stateless; any thread.
package enum MessageDecoder {
    package static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONParser.defaultMaxDepth) -> IncomingMessage {
        let value: JSONValue
        do {
            // A single request (an object, as nearly every message is) is read straight into its
            // envelope's members, without building the object first.
            if let members = try JSONParser.parseEnvelope(bytes, maxDepth: maxDepth) {
                return .single(classify(members))
            }
            value = try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            return .single(.invalid(.parseError(error), id: nil))
        }
        switch value {
        case .array(let elements):
            if elements.isEmpty { return .single(.invalid(.invalidRequest("empty batch"), id: nil)) }
            return .batch(elements.map(classify))
        default:
            return .single(classify(value))
        }
    }

    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> IncomingMessage {
        Array(bytes).withUnsafeBytes { decode($0) }
    }

    /// Validates one request object. `"params": null` becomes absent params (protocol.md section 2);
    /// any other non-structured `params` is `-32600`.
    static func classify(_ value: JSONValue) -> IncomingElement {
        guard case .object(let object) = value else {
            return .invalid(.invalidRequest("expected a request object, found \(value.typeName)"), id: nil)
        }
        var members = JSONParser.EnvelopeMembers()
        for member in object.members {
            switch member.key {
            case "jsonrpc": members.jsonrpc = member.value
            case "method": members.method = member.value
            case "params": members.params = member.value
            case "id": members.id = member.value
            default: break
            }
        }
        return classify(members)
    }

    /// Validates a request object's envelope members (the last of each, nil where absent).
    static func classify(_ members: JSONParser.EnvelopeMembers) -> IncomingElement {
        let version = members.jsonrpc
        let method = members.method
        var params = members.params
        let idValue = members.id
        var id: RequestID?
        if let idValue {
            guard let valid = RequestID(idValue) else {
                switch idValue {
                case .int, .double:
                    return .invalid(.invalidRequest("a numeric id must lie strictly between -2^63 and 2^63; use a string"), id: nil)
                default: break
                }
                return .invalid(.invalidRequest("id must be a string, a number or null"), id: nil)
            }
            id = valid
        }
        // An invalid message is answered even without an id (with id null), as the specification's examples show.
        guard version == .string("2.0") else {
            return .invalid(.invalidRequest("\"jsonrpc\" must be \"2.0\""), id: id ?? .null)
        }
        guard case .string(let name)? = method else {
            return .invalid(.invalidRequest(method == nil ? "missing \"method\"" : "\"method\" must be a string"), id: id ?? .null)
        }
        switch params {
        case nil, .object?, .array?: break
        // `"params": null` is what editors' libraries send for a call without params (Emacs's
        // jsonrpc.el encodes nil as null): it is an absent `params` from here on, for every method.
        case .null?: params = nil
        default: return .invalid(.invalidRequest("\"params\" must be an object or an array"), id: id ?? .null)
        }
        return .request(Request(id: id, method: name, params: params))
    }
}
