import SharedSupport

/// Gathers the replies of one batch's elements, which finish in any order on any thread, and sends
/// them as one array in request order once the last one arrives, through `send` (which runs
/// once, and may hand the array to the channel and release the batch's ids in one step). Each
/// slot is filled once. Thread-safe.
final class BatchCollector: Sendable {
    private struct State {
        var replies: [[UInt8]?]
        var remaining: Int
    }

    private let state: Locked<State>
    private let send: @Sendable ([UInt8]) -> Void

    /// `slots` is the number of elements that will reply (notifications do not); `send` gets the
    /// encoded array once every slot is filled.
    init(slots: Int, send: @escaping @Sendable ([UInt8]) -> Void) {
        state = Locked(State(replies: Array(repeating: nil, count: slots), remaining: slots))
        self.send = send
    }

    func fill(slot: Int, with reply: [UInt8]) {
        let complete: [[UInt8]]? = state.withLock { state in
            guard state.replies[slot] == nil else { return nil }
            state.replies[slot] = reply
            state.remaining -= 1
            return state.remaining == 0 ? state.replies.map { $0! } : nil
        }
        if let complete { send(ReplyEncoder.batch(complete)) }
    }
}
