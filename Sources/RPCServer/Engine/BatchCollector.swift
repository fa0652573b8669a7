import Synchronization

/// Gathers the replies of one batch's elements, which finish in any order on any thread, and sends
/// them as one array in request order once the last one arrives. Each slot is filled once;
/// `onSent` runs once, right after the array was handed to the channel. Thread-safe.
final class BatchCollector: Sendable {
    private struct State {
        var replies: [[UInt8]?]
        var remaining: Int
    }

    private let state: Mutex<State>
    private let channel: ReplyChannel
    private let onSent: @Sendable () -> Void

    /// `slots` is the number of elements that will reply (notifications do not).
    init(slots: Int, channel: ReplyChannel, onSent: @escaping @Sendable () -> Void = {}) {
        state = Mutex(State(replies: Array(repeating: nil, count: slots), remaining: slots))
        self.channel = channel
        self.onSent = onSent
    }

    func fill(slot: Int, with reply: [UInt8]) {
        let complete: [[UInt8]]? = state.withLock { state in
            guard state.replies[slot] == nil else { return nil }
            state.replies[slot] = reply
            state.remaining -= 1
            return state.remaining == 0 ? state.replies.map { $0! } : nil
        }
        if let complete {
            channel.send(ReplyEncoder.batch(complete))
            onSent()
        }
    }
}
