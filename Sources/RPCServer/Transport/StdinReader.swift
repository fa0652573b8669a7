import Dispatch
import Foundation

/// Reads standard input through a `DispatchIO` stream channel, one bounded read at a time, and
/// feeds the connection on the reader queue. It issues the next read only while the connection
/// wants input, so a full connection stops reading and the client's writes block on the pipe
/// (back-pressure). End of input is reported once. No busy loop at EOF: a finished read is not
/// re-issued.
///
/// The channel is closed at end of input or on `stop()`, so nothing stays registered with Dispatch
/// for the descriptor; `closeAndWait()` returns once the channel has let go of it (its last read
/// handler has run), which the server waits for before it exits.
/// - Important: reads run on the engine's reader queue; the public methods may be called from any
///   thread (`closeAndWait` from any thread but the reader queue).
public final class StdinReader: Sendable {
    public static let readSize = 64 * 1024

    /// Reader-queue state.
    private struct ReadState {
        var reading = false
        /// End of input was seen, or reading was stopped; the channel is closed.
        var ended = false
        /// Bytes received by the read in progress.
        var received = 0
    }

    private let connection: RPCConnection
    private let queue: DispatchQueue
    private let channel: DispatchIO
    private let state: QueueBound<ReadState>
    /// Left by the channel's cleanup handler, once the channel no longer uses the descriptor.
    private let released = DispatchGroup()

    public init(fileDescriptor: Int32, connection: RPCConnection) {
        self.connection = connection
        queue = connection.engine.readerQueue
        state = QueueBound(ReadState(), queue: queue)
        let released = released
        released.enter()
        channel = DispatchIO(type: .stream, fileDescriptor: fileDescriptor, queue: queue) { error in
            if error != 0 { Log.debug("stdin channel closed with errno \(error)") }
            released.leave()
        }
        channel.setLimit(lowWater: 1)
        channel.setLimit(highWater: Self.readSize)
    }

    /// Starts reading. Any thread.
    public func start() {
        queue.async {
            self.connection.onWantsInput { self.readNextOnReaderQueue() }
            self.readNextOnReaderQueue()
        }
    }

    /// Stops reading for good (shutdown). Any thread.
    public func stop() {
        queue.async { self.closeOnReaderQueue() }
    }

    /// Closes the channel if it is open and waits until Dispatch has let go of the descriptor: no
    /// read handler of this reader runs after this returns. Any thread but the reader queue.
    public func closeAndWait() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { closeOnReaderQueue() }
        released.wait()
    }

    private func closeOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !state.value.ended else { return }
        state.value.ended = true
        channel.close(flags: .stop)
    }

    private func readNextOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !state.value.reading, !state.value.ended, connection.wantsInput else { return }
        state.value.reading = true
        state.value.received = 0
        channel.read(offset: 0, length: Self.readSize, queue: queue) { done, data, error in
            self.readProgressOnReaderQueue(done: done, data: data, error: error)
        }
    }

    private func readProgressOnReaderQueue(done: Bool, data: DispatchData?, error: Int32) {
        dispatchPrecondition(condition: .onQueue(queue))
        if let data, !data.isEmpty {
            state.value.received += data.count
            data.enumerateBytes { buffer, _, _ in
                self.connection.receiveOnReaderQueue(UnsafeRawBufferPointer(buffer))
            }
        }
        guard done else { return }
        state.value.reading = false
        if state.value.ended { return }
        if error != 0 || state.value.received < Self.readSize {
            // A stream read ends short only at end of input (or on an error, treated alike).
            if error != 0 && error != ECANCELED { Log.warn("reading stdin failed: \(String(cString: strerror(error)))") }
            closeOnReaderQueue()
            connection.endOfInputOnReaderQueue()
        } else {
            readNextOnReaderQueue()
        }
    }
}
