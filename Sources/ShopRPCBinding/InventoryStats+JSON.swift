import RPCServer
import ShopAPI

extension InventoryStats {
    /// The `inventory` section of `rpc.stats` (protocol.md, section 6.2), members in the documented
    /// order; the two latencies only once measured.
    public var json: JSONValue {
        var section: JSONObject = [
            "limit": .int(Int64(limit)),
            "ceiling": .int(Int64(ceiling)),
            "inFlight": .int(Int64(inFlight)),
            "queued": .int(Int64(queued)),
            "coalescedJoins": .int(Int64(coalescedJoins)),
            "shed": .int(Int64(shed)),
            "staleAnswers": .int(Int64(staleAnswers)),
            "staleLevels": .int(Int64(staleLevels)),
            "staleCacheEntries": .int(Int64(staleCacheEntries)),
            "circuit": .string(circuit),
            "circuitOpened": .int(Int64(circuitOpened)),
            "refusedWhileOpen": .int(Int64(refusedWhileOpen)),
            "upstreamRequests": .int(Int64(upstreamRequests)),
            "answered": .int(Int64(answered)),
            "upstreamFailures": .int(Int64(upstreamFailures)),
            "cancelled": .int(Int64(cancelled)),
            "notSentTooLate": .int(Int64(notSentTooLate)),
        ]
        if let latencyRecentMs, let latencyBaselineMs {
            section.append("latencyRecentMs", .int(Int64(latencyRecentMs)))
            section.append("latencyBaselineMs", .int(Int64(latencyBaselineMs)))
        }
        return .object(section)
    }
}
