import Dispatch

/// One client's byte stream, from frames to replies: it frames the input, decodes each message
/// once, hands it to the engine in arrival order, and applies back-pressure: while the engine has
/// `maxInflight` calls running or the writer's backlog is full, it stops taking frames, and tells
/// its input source to stop reading (bytes already read stay buffered, bounded by one read).
///
/// Input-agnostic, so tests can feed it memory: the source calls `receiveOnReaderQueue` with
/// chunks and `endOfInputOnReaderQueue` once; `wantsInput` says whether to read more, and
/// `onWantsInput` fires (on the reader queue) when it becomes true again.
/// - Important: every method runs on the engine's reader queue.
package final class RPCConnection: Sendable {
    package let engine: RPCEngine
    package let writer: OutputWriter
    private let tracer: Tracer?
    private let channel: ReplyChannel

    /// Reader-queue state.
    private struct ReaderState {
        var decoder: FrameDecoder
        var lifecycle = ReaderLifecycle()
        /// Whether the writer has been told the detected framing.
        var framingAnnounced = false
        var resumeHandler: (@Sendable () -> Void)?
        var finishedHandler: (@Sendable () -> Void)?
    }

    private let state: QueueBound<ReaderState>

    package init(engine: RPCEngine, writer: OutputWriter, framing: Framing?, tracer: Tracer? = nil) {
        self.engine = engine
        self.writer = writer
        self.tracer = tracer
        channel = writer.channel
        var initial = ReaderState(decoder: FrameDecoder(framing: framing, maxMessageBytes: engine.configuration.maxMessageBytes))
        if let framing {
            writer.setFraming(framing)
            initial.framingAnnounced = true
        }
        state = QueueBound(initial, queue: engine.readerQueue)
    }

    /// True while the connection can take more input.
    package var wantsInput: Bool {
        debugCheckOnQueue(engine.readerQueue)
        return state.value.lifecycle.wantsInput
    }

    /// Called (on the reader queue) when the connection wants input again after pausing.
    package func onWantsInput(_ handler: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        state.value.resumeHandler = handler
    }

    /// Called once (on the writer queue) after end of input or stop, when every reply is written.
    package func onFinished(_ handler: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        state.value.finishedHandler = handler
    }

    // MARK: - Input

    package func receiveOnReaderQueue(_ bytes: UnsafeRawBufferPointer) {
        receiveOnReaderQueue(bytes, inputIdle: false)
    }

    /// Takes a chunk of input. `inputIdle`: the source has nothing more waiting (the reader had
    /// caught up with the client): the replies answered here, on the reader queue, are then held
    /// until the chunk is done and written by this thread if the writer is idle
    /// (`OutputWriter.endReaderBurst`), instead of waking the writer queue for them.
    func receiveOnReaderQueue(_ bytes: UnsafeRawBufferPointer, inputIdle: Bool) {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        let action = state.value.lifecycle.bytesArrived()
        guard action != .ignoreBytes else { return }
        state.value.decoder.append(bytes)
        guard inputIdle else { return perform(action) }
        writer.beginReaderBurst()
        perform(action, inIdleChunk: true)
        writer.endReaderBurst(writeIfIdle: true)
    }

    /// The input reached its end: answer what is buffered, let calls finish (in an MCP session,
    /// cancel them: the host is leaving), flush, then finish.
    package func endOfInputOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        perform(state.value.lifecycle.inputEnded())
    }

    /// Stops taking input (SIGTERM): calls in flight get `graceMs` to finish, then are answered
    /// with `ShuttingDown`; then the connection finishes.
    package func stopOnReaderQueue(graceMs: Int) {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        perform(state.value.lifecycle.stop(), graceMs: graceMs)
    }

    // MARK: - Carrying out the lifecycle's actions

    /// Carries out one action of `ReaderLifecycle`. `inIdleChunk`: the frames come from a chunk
    /// read when the input was idle (between `beginReaderBurst` and its end).
    private func perform(_ action: ReaderLifecycle.Action, inIdleChunk: Bool = false, graceMs: Int = 0) {
        debugCheckOnQueue(engine.readerQueue)
        switch action {
        case .none, .ignoreBytes, .bufferBytes:
            break
        case .takeFrames:
            takeFramesOnReaderQueue(inIdleChunk: inIdleChunk)
        case .waitForRoom(let reason):
            Log.debug("pausing input: \(engine.inflightCount) calls in flight, \(writer.backlogBytes) bytes unwritten")
            let readerQueue = engine.readerQueue
            switch reason {
            case .capacity: engine.notifyWhenCapacityAvailable { self.roomAvailableOnReaderQueue() }
            case .backlog: writer.notifyWhenBacklogHasRoom { readerQueue.async { self.roomAvailableOnReaderQueue() } }
            }
        case .finishInput:
            if let tail = state.value.decoder.finish() { handleOnReaderQueue(tail, inIdleChunk: false) }
            // An MCP host closes stdin to end the session, then kills the server if it lingers:
            // stop the work in flight now (plain JSON-RPC clients get their answers).
            if engine.isMCPSessionOnReaderQueue { engine.abortAllInflight() }
            notifyWhenDrained()
        case .stop(let waitForDrain):
            engine.timerQueue.asyncAfter(deadline: .now() + .milliseconds(graceMs)) { [engine] in engine.abortAllInflight() }
            if waitForDrain { notifyWhenDrained() }
        case .flushAndFinish:
            // Every reply was handed to the writer before its call left the table: flush behind
            // them, then report, on the writer queue.
            writer.whenFlushed { [finishedHandler = state.value.finishedHandler] in finishedHandler?() }
        }
    }

    private func notifyWhenDrained() {
        engine.notifyWhenDrained { self.perform(self.state.value.lifecycle.drained()) }
    }

    private func roomAvailableOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(engine.readerQueue))
        let action = state.value.lifecycle.roomAvailable()
        guard action != .none else { return }
        perform(action)
        if wantsInput { state.value.resumeHandler?() }
    }

    // MARK: - Frames

    /// Takes whole frames while reading and there is room; tells the lifecycle when room runs out
    /// or the frames do.
    private func takeFramesOnReaderQueue(inIdleChunk: Bool) {
        debugCheckOnQueue(engine.readerQueue)
        while state.value.lifecycle.isReading {
            if !engine.hasCapacity { return perform(state.value.lifecycle.noRoom(.capacity)) }
            if !writer.hasBacklogRoom { return perform(state.value.lifecycle.noRoom(.backlog)) }
            guard let event = state.value.decoder.next() else { return perform(state.value.lifecycle.framesExhausted()) }
            handleOnReaderQueue(event, inIdleChunk: inIdleChunk)
        }
    }

    private func handleOnReaderQueue(_ event: FrameDecoder.Event, inIdleChunk: Bool) {
        debugCheckOnQueue(engine.readerQueue)
        if !state.value.framingAnnounced, let framing = state.value.decoder.framing {
            writer.setFraming(framing)
            state.value.framingAnnounced = true
        }
        switch event {
        case .message(let body):
            tracer?.record(direction: "in", body: body)
            let message = body.withUnsafeBytes { MessageDecoder.decode($0, maxDepth: engine.configuration.maxDepth) }
            if case .single = message, inIdleChunk, state.value.decoder.bufferedByteCount == 0, engine.inflightCount == 0 {
                // An idle server: the last request of a chunk read when the input was idle (nothing
                // else waits to be read) and no call in flight. An executor may start this call
                // here (`InlineStart`); its reply is then held in this chunk's burst and written at
                // its end. A client keeping several calls in flight gets the lanes.
                InlineStart.granting { engine.receiveOnReaderQueue(message, channel: channel) }
            } else {
                engine.receiveOnReaderQueue(message, channel: channel)
            }
        case .error(let error):
            Log.info("input error: \(error.message)")
            channel.send(ReplyEncoder.error(id: nil, error: error))
        }
    }
}
