/// How a server presents itself: in `rpc.discover`, in MCP's `initialize` result (`serverInfo`,
/// `instructions`) and in its log lines. Immutable.
///
/// ```swift
/// let identity = ServerIdentity(name: "hello-rpc", title: "Hello RPC", version: "1.0.0",
///                               instructions: "Call hello_greet with a name.")
/// ```
public struct ServerIdentity: Sendable, Equatable {
    /// A short machine name (`hello-rpc`): MCP `serverInfo.name`, the log prefix.
    public var name: String
    /// A human title (`Hello RPC`): MCP `serverInfo.title`, the OpenRPC document's title.
    public var title: String
    public var version: String
    /// Advice for MCP hosts on how to use the tools well (MCP `instructions`); nil for none.
    public var instructions: String?

    public init(name: String, title: String? = nil, version: String, instructions: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.version = version
        self.instructions = instructions
    }
}
