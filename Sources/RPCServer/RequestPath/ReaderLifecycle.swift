/// Where a connection's reading stands, as a pure state machine: each event moves it and returns
/// the one action the connection carries out. No queues, no clock: `RPCConnection` keeps it in its
/// reader-queue state and feeds it events.
///
/// ```
/// reading ──noRoom──▶ paused(why) ──roomAvailable──▶ reading
///    │ inputEnded + framesExhausted        │ stop          stop (from any state still reading)
///    ▼                                     ▼
/// draining(stopped: false) ──stop──▶ draining(stopped: true) ──drained──▶ finished
/// ```
///
/// `reading` and `paused` remember whether the input has ended: a paused connection keeps its
/// buffered frames, and takes them once room comes back before it finishes. Draining starts when
/// no frame will be taken any more (end of input with every frame taken, or a stop); finishing is
/// when every call has settled, not before.
struct ReaderLifecycle: Equatable {
    /// Why reading paused.
    enum PauseReason: Hashable, CaseIterable {
        /// `maxInflight` calls are in flight.
        case capacity
        /// The writer's backlog is full: the client is not reading its replies.
        case backlog
    }

    enum State: Hashable {
        /// Frames are taken as they arrive. `inputEnded`: no more bytes will come; once the
        /// buffered frames are taken, the input is finished.
        case reading(inputEnded: Bool)
        /// No frame is taken until there is room again; bytes that arrive are buffered.
        case paused(PauseReason, inputEnded: Bool)
        /// No frame will be taken any more; waiting for the calls in flight to settle. `stopped`:
        /// by a stop, which also ends the calls left after the grace period.
        case draining(stopped: Bool)
        /// Every call settled: the writer flushes and the finished handler runs.
        case finished
    }

    enum Action: Equatable {
        case none
        /// Drop the bytes that arrived (the connection was stopped).
        case ignoreBytes
        /// Keep the bytes; take no frame now.
        case bufferBytes
        /// Keep the bytes (if any arrived) and take frames while `state` is `reading`.
        case takeFrames
        /// Ask to be told (`roomAvailable`) when there is room of this kind.
        case waitForRoom(PauseReason)
        /// Decode what is left of the input as a last frame, end the calls in flight if the client
        /// is an MCP host (it is leaving), then wait for the calls to settle (`drained`).
        case finishInput
        /// End the calls in flight after the grace period; and, when `waitForDrain`, wait for the
        /// calls to settle (`drained`), as `finishInput` does.
        case stop(waitForDrain: Bool)
        /// Flush the writer, then run the finished handler.
        case flushAndFinish
    }

    private(set) var state = State.reading(inputEnded: false)

    /// Whether the connection wants more input: reading, and the input has not ended.
    var wantsInput: Bool { state == .reading(inputEnded: false) }

    /// Whether frames may be taken now.
    var isReading: Bool {
        if case .reading = state { return true }
        return false
    }

    // MARK: - Events

    /// Bytes arrived from the input.
    mutating func bytesArrived() -> Action {
        switch state {
        case .reading: return .takeFrames
        case .paused: return .bufferBytes
        case .draining, .finished: return .ignoreBytes
        }
    }

    /// The input ended: no more bytes will arrive.
    mutating func inputEnded() -> Action {
        switch state {
        case .reading(inputEnded: false):
            state = .reading(inputEnded: true)
            return .takeFrames
        case .paused(let reason, inputEnded: false):
            state = .paused(reason, inputEnded: true)
            return .none
        case .reading(inputEnded: true), .paused(_, inputEnded: true), .draining, .finished:
            return .none
        }
    }

    /// The next frame cannot be taken for want of room (`reason`).
    mutating func noRoom(_ reason: PauseReason) -> Action {
        guard case .reading(let inputEnded) = state else { return .none }
        state = .paused(reason, inputEnded: inputEnded)
        return .waitForRoom(reason)
    }

    /// The room a pause waited for is there.
    mutating func roomAvailable() -> Action {
        guard case .paused(_, let inputEnded) = state else { return .none }
        state = .reading(inputEnded: inputEnded)
        return .takeFrames
    }

    /// Every whole frame buffered has been taken.
    mutating func framesExhausted() -> Action {
        guard state == .reading(inputEnded: true) else { return .none }
        state = .draining(stopped: false)
        return .finishInput
    }

    /// Stop reading (a signal): take no more frames, and end the calls in flight after a grace period.
    mutating func stop() -> Action {
        switch state {
        case .reading, .paused:
            state = .draining(stopped: true)
            return .stop(waitForDrain: true)
        case .draining(stopped: false):
            state = .draining(stopped: true)
            return .stop(waitForDrain: false)  // already waiting
        case .draining(stopped: true), .finished:
            return .none
        }
    }

    /// Every call in flight has settled (the wait `finishInput` or `stop` asked for).
    mutating func drained() -> Action {
        guard case .draining = state else { return .none }
        state = .finished
        return .flushAndFinish
    }
}
