import RPCServer
import ShopAPI

extension SearchStats.Snapshot {
    /// The `search` section of `rpc.stats` (protocol.md, section 6.2), members in the documented order.
    public var json: JSONValue {
        let top: [JSONValue] = topWithoutResults.map { entry in
            var object: JSONObject = ["query": .string(entry.query), "count": .int(Int64(entry.count))]
            if entry.overcount > 0 { object.append("overcount", .int(Int64(entry.overcount))) }
            return .object(object)
        }
        return [
            "searches": .int(Int64(searches)),
            "withoutResults": .int(Int64(withoutResults)),
            "topWithoutResults": .array(top),
        ]
    }
}
