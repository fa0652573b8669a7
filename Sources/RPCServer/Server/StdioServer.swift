import Dispatch
import Foundation

/// Serves an `RPCEngine` on this process's stdin and stdout until end of input, SIGTERM/SIGINT,
/// or a closed stdout, then exits 0. Wires the pieces together: stdout protection, the DispatchIO
/// reader, the connection, the one writer, signals and the tracer.
public enum StdioServer {
    /// Runs until the session ends, then exits. Call from the main thread, once; the main thread
    /// parks until then and makes the exit itself. `beforeExit` runs once, on the main thread, before
    /// a clean exit (end of input, signal, or closed stdout), after the last reply was written.
    public static func run(registry: MethodRegistry, options: ServerOptions, title: String, version: String,
                           beforeExit: @escaping @Sendable () -> Void = {}) -> Never {
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
        let engine = RPCEngine(registry: registry, configuration: options.engine, title: title, version: version)
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
        Log.info("\(title) \(version) serving on stdin/stdout")
        // Parking on a semaphore rather than in dispatchMain(): nothing here uses the main queue, and
        // the exit then happens on the main thread. (It also lets valgrind run the binary, which
        // crashes in dispatchMain's sigsuspend.)
        finished.wait()
        tracer?.flush()
        beforeExit()
        withExtendedLifetime(signals) { exit(0) }
    }
}
