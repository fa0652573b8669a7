import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SharedSupport

/// Serves a `MethodRegistry` as JSON-RPC 2.0 (and MCP) on this process's stdin and stdout until
/// end of input, SIGTERM/SIGINT, or a closed stdout, then returns why; the program decides how to
/// exit (normally `exitProcess(status:)`). Wires the pieces together: stdout protection, the stdin
/// reader thread, the connection, the one writer, signals and the tracer; before returning it
/// cancels or closes each Dispatch object it made and waits for their handlers.
public enum StdioServer {
    /// Serves until the session ends and returns why. Call once per process, from the main thread,
    /// which parks until then. When it returns, every reply was written (or stdout was closed),
    /// stdin is closed, the trace file is synced and closed, and SIGTERM/SIGINT are ignored.
    ///
    /// ```swift
    /// let registry = MethodRegistry([
    ///     .async("hello.greet", params: Greet.self) { params, _ in ["greeting": "Hello, \(params.name)!"] },
    /// ])
    /// let options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
    /// let reason = try StdioServer.run(registry: registry, options: options,
    ///                                  identity: ServerIdentity(name: "hello-rpc", version: "1.0.0"))
    /// StdioServer.exitProcess(status: reason.status)
    /// ```
    ///
    /// - Parameters:
    ///   - registry: the methods to serve; `options.deadlineOverrides` are applied to a copy.
    ///   - options: framing, engine limits, log level, trace file (usually `ServerOptions.parse`).
    ///   - identity: the name in log lines and `rpc.discover`, and MCP's `serverInfo`/`instructions`.
    /// - Returns: why the session ended, with the suggested exit status.
    /// - Throws: `StartupError` when the trace file cannot be opened; stdin and stdout are untouched then.
    /// - Important: end the process with `exitProcess(status:)`, not `exit()` or by returning from
    ///   `main`: a handler that outlived its deadline may still be running on another thread.
    public static func run(registry: MethodRegistry, options: ServerOptions,
                           identity: ServerIdentity) throws(StartupError) -> ExitReason {
        Log.prefix = identity.name
        Log.level = options.logLevel
        let tracer: Tracer?
        do {
            tracer = try options.tracePath.map { try Tracer(path: $0) }
        } catch {
            throw StartupError(description: "cannot open trace file \(options.tracePath ?? ""): \(error)")
        }
        let protocolFD = StdioProtection.protectStdout()
        var registry = registry
        for override in options.deadlineOverrides where !registry.overrideDeadline(override.method, milliseconds: override.milliseconds) {
            Log.warn("--deadline: no method named '\(override.method)'")
        }
        let engine = RPCEngine(registry: registry, configuration: options.engine, identity: identity)
        let finished = DispatchSemaphore(value: 0)
        /// The first cause to arrive wins (a signal's session also ends in `onFinished`).
        let cause = Locked<ExitReason.Cause?>(nil)
        let end: @Sendable (ExitReason.Cause) -> Void = { reason in
            cause.withLock { if $0 == nil { $0 = reason } }
            finished.signal()
        }
        let writer = OutputWriter(output: FileDescriptorOutput(fd: protocolFD), tracer: tracer) {
            Log.warn("stdout closed by the client; exiting")
            end(.outputClosed)
        }
        let connection = RPCConnection(engine: engine, writer: writer, framing: options.framing, tracer: tracer)
        let reader = StdinReader(fileDescriptor: STDIN_FILENO, connection: connection)
        let signals = ShutdownSignals(queue: engine.readerQueue) { signalNumber in
            Log.info("received signal \(signalNumber); stopping (grace \(options.engine.shutdownGraceMs) ms)")
            cause.withLock { if $0 == nil { $0 = .signal(signalNumber) } }
            reader.stop()
            connection.stopOnReaderQueue(graceMs: options.engine.shutdownGraceMs)
        }
        engine.readerQueue.async {
            connection.onFinished {
                Log.info("done; exiting")
                end(.endOfInput)
            }
            reader.start()
        }
        Log.info("\(identity.name) \(identity.version) serving on stdin/stdout")
        // Parking on a semaphore rather than in dispatchMain(): nothing here uses the main queue, and
        // the caller's exit then happens on the main thread. (It also lets valgrind run the binary,
        // which crashes in dispatchMain's sigsuspend.)
        finished.wait()
        quiesce(signals: signals, reader: reader, tracer: tracer)
        return ExitReason(cause: cause.withLock { $0 } ?? .endOfInput)
    }

    // MARK: - Exit

    /// Ends the process at once with `status`, after flushing stdio buffers (a stray `print`).
    /// Never returns. Use it after `run` returns, instead of `exit()` or returning from `main`.
    ///
    /// ```swift
    /// let reason = try StdioServer.run(registry: registry, options: options, identity: identity)
    /// StdioServer.exitProcess(status: reason.status)
    /// ```
    ///
    /// Why `_exit`, not `exit`: `exit` runs atexit handlers and C++ static destructors (the Swift
    /// runtime's, ICU's via Foundation) and tears down stdio while other threads still run:
    /// Dispatch's manager thread, a handler that outlived its deadline on the work queue. A thread
    /// touching that state mid-teardown crashes the process after every reply was already sent.
    /// `_exit` ends every thread at once and tears nothing down under them; everything that must
    /// reach the outside was written, synced or flushed explicitly (by `run`, then here).
    public static func exitProcess(status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }

    /// Ends the session's Dispatch objects and flushes what must reach the outside, so the caller
    /// may end the process with `exitProcess` at any moment after.
    ///
    /// Order: the signal sources are cancelled and their handlers finished; the stdin thread has
    /// returned (no input reaches the connection after); the trace is written, synced and closed.
    /// Replies need no flush here: the writer writes them with write(2), and the session ends only
    /// after its last flush (or after stdout closed). The engine's deadline timer and any progress
    /// heartbeat are idle by now (no call is in flight, each settled call cancelled its own), and
    /// their handlers hold only weak or retained references, so nothing they reach is freed.
    private static func quiesce(signals: ShutdownSignals, reader: StdinReader, tracer: Tracer?) {
        signals.cancelAndWait()
        reader.closeAndWait()
        tracer?.close()
    }
}
