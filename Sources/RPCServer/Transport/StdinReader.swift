import Dispatch
import Foundation

/// Reads standard input through a `DispatchIO` stream channel, one bounded read at a time, and
/// feeds the connection on the reader queue. It issues the next read only while the connection
/// wants input, so a full connection stops reading and the client's writes block on the pipe
/// (back-pressure). End of input is reported once. No busy loop at EOF: a finished read is not
/// re-issued. - Important: runs on the engine's reader queue.
public final class StdinReader: Sendable {
    public static let readSize = 64 * 1024

    private let connection: RPCConnection
    private let queue: DispatchQueue
    private let channel: DispatchIO

    // Reader-queue state.
    private nonisolated(unsafe) var reading = false
    private nonisolated(unsafe) var ended = false

    public init(fileDescriptor: Int32, connection: RPCConnection) {
        self.connection = connection
        queue = connection.engine.readerQueue
        channel = DispatchIO(type: .stream, fileDescriptor: fileDescriptor, queue: queue) { error in
            if error != 0 { Log.debug("stdin channel closed with errno \(error)") }
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
        queue.async {
            self.ended = true
            self.channel.close(flags: .stop)
        }
    }

    private func readNextOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !reading, !ended, connection.wantsInput else { return }
        reading = true
        nonisolated(unsafe) var received = 0
        channel.read(offset: 0, length: Self.readSize, queue: queue) { done, data, error in
            if let data, !data.isEmpty {
                received += data.count
                data.enumerateBytes { buffer, _, _ in
                    self.connection.receiveOnReaderQueue(UnsafeRawBufferPointer(buffer))
                }
            }
            guard done else { return }
            self.reading = false
            if self.ended { return }
            if error != 0 || received < Self.readSize {
                // A stream read ends short only at end of input (or on an error, treated alike).
                if error != 0 && error != ECANCELED { Log.warn("reading stdin failed: \(String(cString: strerror(error)))") }
                self.ended = true
                self.connection.endOfInputOnReaderQueue()
            } else {
                self.readNextOnReaderQueue()
            }
        }
    }
}
