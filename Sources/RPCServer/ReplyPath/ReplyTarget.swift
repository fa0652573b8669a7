/// Where one call's reply goes: straight to the connection, into a batch slot, or nowhere (a
/// notification, which is never answered).
enum ReplyTarget: Sendable {
    case channel(ReplyChannel)
    case batch(BatchCollector, slot: Int)
    case none

    /// Encodes the reply to request `id` and hands it to this target. Any thread.
    func deliver(id: RequestID, _ outcome: Result<ResultJSON, RPCError>) {
        if case .none = self { return }
        deliverBody(Self.encode(id: id, outcome))
    }

    /// The reply to request `id`, encoded. Any thread.
    static func encode(id: RequestID, _ outcome: Result<ResultJSON, RPCError>) -> [UInt8] {
        switch outcome {
        case .success(let result): return ReplyEncoder.result(id: id, result: result)
        case .failure(let error): return ReplyEncoder.error(id: id, error: error)
        }
    }

    /// Hands an already encoded reply to this target. Any thread.
    func deliverBody(_ body: [UInt8]) {
        switch self {
        case .channel(let channel): channel.send(body)
        case .batch(let collector, let slot): collector.fill(slot: slot, with: body)
        case .none: break
        }
    }
}
