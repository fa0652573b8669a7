extension StdioServer {
    /// Why `StdioServer.run` returned: the session is over and every reply that could be written
    /// was written. Immutable.
    ///
    /// ```swift
    /// let reason = try StdioServer.run(registry: registry, options: options, identity: identity)
    /// Log.info("session ended: \(reason)")
    /// StdioServer.exitProcess(status: reason.status)
    /// ```
    public struct ExitReason: Sendable, Equatable, CustomStringConvertible {
        /// What ended the session.
        public enum Cause: Sendable, Equatable {
            /// The client closed stdin; calls in flight finished (or, in an MCP session, were cancelled).
            case endOfInput
            /// SIGTERM or SIGINT (the number); calls in flight got the shutdown grace period.
            case signal(Int32)
            /// The client closed our stdout; replies still unwritten were dropped.
            case outputClosed
        }

        public let cause: Cause

        /// The exit status the server suggests: 0 for every cause above, since each is an orderly
        /// end of a session (protocol.md, section 8, "Lifecycle").
        public var status: Int32 { 0 }

        public var description: String {
            switch cause {
            case .endOfInput: "end of input"
            case .signal(let number): "signal \(number)"
            case .outputClosed: "stdout closed by the client"
            }
        }
    }

    /// The server could not start; nothing was read or written on stdin/stdout.
    /// `description` says why, for stderr.
    ///
    /// ```swift
    /// do {
    ///     let reason = try StdioServer.run(registry: registry, options: options, identity: identity)
    ///     StdioServer.exitProcess(status: reason.status)
    /// } catch {
    ///     FileHandle.standardError.write(Data("hello-rpc: \(error)\n".utf8))
    ///     StdioServer.exitProcess(status: 2)
    /// }
    /// ```
    public struct StartupError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }
}
