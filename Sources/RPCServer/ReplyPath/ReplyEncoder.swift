/// Encodes replies and notifications as JSON bodies (unframed), writing each byte once.
/// Stateless; any thread.
package enum ReplyEncoder {
    package static func result(id: RequestID, result: ResultJSON) -> [UInt8] {
        // One allocation, no regrowth: the envelope and an id fit in 64 bytes more than the result.
        var capacity = 512
        if case .text(let text) = result { capacity = text.count + 64 }
        var out = prefix(capacity: capacity)
        write(id, into: &out)
        JSONWriter.append(",\"result\":", to: &out)
        result.write(into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    package static func result(id: RequestID, result: JSONValue) -> [UInt8] {
        self.result(id: id, result: .value(result))
    }

    package static func error(id: RequestID?, error: RPCError) -> [UInt8] {
        var out = prefix(capacity: 512)
        JSONWriter.write((id ?? .null).json, into: &out)
        JSONWriter.append(",\"error\":", to: &out)
        JSONWriter.write(error.json, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    package static func notification(method: String, params: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.append("{\"jsonrpc\":\"2.0\",\"method\":", to: &out)
        JSONWriter.writeString(method, into: &out)
        JSONWriter.append(",\"params\":", to: &out)
        JSONWriter.write(params, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Joins element replies into one batch reply array.
    package static func batch(_ replies: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(replies.reduce(2) { $0 + $1.count + 1 })
        for (position, reply) in replies.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: reply)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// A request id as JSON, without making a `JSONValue` of it.
    private static func write(_ id: RequestID, into out: inout [UInt8]) {
        switch id {
        case .int(let number): JSONWriter.writeInteger(number, into: &out)
        case .string(let string): JSONWriter.writeString(string, into: &out)
        case .double, .null: JSONWriter.write(id.json, into: &out)
        }
    }

    private static func prefix(capacity: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        JSONWriter.append("{\"jsonrpc\":\"2.0\",\"id\":", to: &out)
        return out
    }
}
