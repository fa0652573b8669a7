import Dispatch
import Foundation

/// Serves an `RPCEngine` on this process's stdin and stdout until end of input, SIGTERM/SIGINT,
/// or a closed stdout, then exits 0. Wires the pieces together: stdout protection, the stdin
/// reader thread, the connection, the one writer, signals and the tracer; at the end it cancels or closes
/// each Dispatch object it made, waits for their handlers, flushes, and ends the process with
/// `_exit` (see `quiesceAndExit`).
public enum StdioServer {
    /// Runs until the session ends, then exits. Call from the main thread, once; the main thread
    /// parks until then and makes the exit itself. `beforeExit` runs once, on the main thread, before
    /// a clean exit (end of input, signal, or closed stdout), after the last reply was written.
    public static func run(registry: MethodRegistry, options: ServerOptions, identity: ServerIdentity,
                           beforeExit: @escaping @Sendable () -> Void = {}) -> Never {
        Log.prefix = identity.name
        let protocolFD = StdioProtection.protectStdout()
        Log.level = options.logLevel
        var registry = registry
        for override in options.deadlineOverrides where !registry.overrideDeadline(override.method, milliseconds: override.milliseconds) {
            Log.warn("--deadline: no method named '\(override.method)'")
        }
        let tracer: Tracer?
        do {
            tracer = try options.tracePath.map { try Tracer(path: $0) }
        } catch {
            Log.error("cannot open trace file \(options.tracePath ?? ""): \(error)")
            exit(2)
        }
        let engine = RPCEngine(registry: registry, configuration: options.engine, identity: identity)
        let finished = DispatchSemaphore(value: 0)
        let writer = OutputWriter(output: FileDescriptorOutput(fd: protocolFD), tracer: tracer) {
            Log.warn("stdout closed by the client; exiting")
            finished.signal()
        }
        let connection = RPCConnection(engine: engine, writer: writer, framing: options.framing, tracer: tracer)
        let reader = StdinReader(fileDescriptor: STDIN_FILENO, connection: connection)
        let signals = ShutdownSignals(queue: engine.readerQueue) { signalNumber in
            Log.info("received signal \(signalNumber); stopping (grace \(options.engine.shutdownGraceMs) ms)")
            reader.stop()
            connection.stopOnReaderQueue(graceMs: options.engine.shutdownGraceMs)
        }
        engine.readerQueue.async {
            connection.onFinished {
                Log.info("done; exiting")
                finished.signal()
            }
            reader.start()
        }
        Log.info("\(identity.name) \(identity.version) serving on stdin/stdout")
        // Parking on a semaphore rather than in dispatchMain(): nothing here uses the main queue, and
        // the exit then happens on the main thread. (It also lets valgrind run the binary, which
        // crashes in dispatchMain's sigsuspend.)
        finished.wait()
        quiesceAndExit(signals: signals, reader: reader, tracer: tracer, beforeExit: beforeExit)
    }

    // MARK: - Exit

    /// Ends the session's Dispatch objects, flushes what must reach the outside, and ends the process.
    ///
    /// Order: the signal sources are cancelled and their handlers finished; the stdin thread has
    /// returned (no input reaches the connection after); the trace is written,
    /// synced and closed; `beforeExit` runs; stdio buffers (a stray `print`) are flushed. Replies
    /// need no flush here: the writer writes them with write(2), and the session ends only after
    /// its last flush (or after stdout closed). The engine's deadline timer and any progress
    /// heartbeat are idle by now (no call is in flight, each settled call cancelled its own), and
    /// their handlers hold only weak or retained references, so nothing they reach is freed.
    ///
    /// Then `_exit(0)`, not `exit(0)`: `exit` runs atexit handlers and C++ static destructors (the
    /// Swift runtime's, ICU's via Foundation) and tears down stdio while other threads still run:
    /// Dispatch's manager thread, a handler that outlived its deadline on the work queue. A thread
    /// touching that state mid-teardown crashes the process after every reply was already sent.
    /// `_exit` ends every thread at once and tears nothing down under them; everything that must
    /// reach the outside was written or flushed explicitly above.
    private static func quiesceAndExit(signals: ShutdownSignals, reader: StdinReader, tracer: Tracer?,
                                       beforeExit: @Sendable () -> Void) -> Never {
        signals.cancelAndWait()
        reader.closeAndWait()
        tracer?.close()
        beforeExit()
        fflush(nil)
        _exit(0)
    }
}
