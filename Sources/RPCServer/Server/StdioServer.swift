import Dispatch
import Foundation

/// Serves an `RPCEngine` on this process's stdin and stdout until end of input, SIGTERM/SIGINT,
/// or a closed stdout, then exits 0. Wires the pieces together: stdout protection, the DispatchIO
/// reader, the connection, the one writer, signals and the tracer.
public enum StdioServer {
    /// Runs forever (until exit). Call from the main thread, once. `beforeExit` runs once before a
    /// clean exit (end of input, signal, or closed stdout), after the last reply was written.
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
        let writer = OutputWriter(output: FileDescriptorOutput(fd: protocolFD), tracer: tracer) {
            Log.warn("stdout closed by the client; exiting")
            tracer?.flush()
            beforeExit()
            exit(0)
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
                tracer?.flush()
                beforeExit()
                Log.info("done; exiting")
                withExtendedLifetime(signals) { exit(0) }
            }
            reader.start()
        }
        Log.info("\(title) \(version) serving on stdin/stdout")
        dispatchMain()
    }
}
