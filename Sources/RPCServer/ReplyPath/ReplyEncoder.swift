/// Encodes replies and notifications as JSON bodies (unframed), writing each byte once.
/// Stateless; any thread.
package enum ReplyEncoder {
    package static func result(id: RequestID, result: ResultJSON) -> [UInt8] {
        var out = prefix(capacity: 512)  // most replies fit: one allocation, no regrowth
        JSONWriter.write(id.json, into: &out)
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

    private static func prefix(capacity: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        JSONWriter.append("{\"jsonrpc\":\"2.0\",\"id\":", to: &out)
        return out
    }
}
