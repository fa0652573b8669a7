/// The messages the engine answers itself, on the reader queue and in arrival order, before any
/// registered method of the same name: the control messages (cancellation; MCP's lifecycle and
/// tools) and the built-in methods of protocol.md, section 6.
enum BuiltIn: CaseIterable, Sendable {
    /// `$/cancelRequest {id}` (LSP).
    case cancelRequest
    /// `notifications/cancelled {requestId}` (MCP).
    case cancelled
    case initialize
    /// `notifications/initialized` (MCP), accepted silently.
    case initialized
    case toolsList
    case toolsCall
    case ping
    /// `rpc.discover`: the OpenRPC document.
    case discover
    /// `rpc.stats`.
    case stats

    /// The method name it answers.
    var name: String {
        switch self {
        case .cancelRequest: return "$/cancelRequest"
        case .cancelled: return "notifications/cancelled"
        case .initialize: return "initialize"
        case .initialized: return "notifications/initialized"
        case .toolsList: return "tools/list"
        case .toolsCall: return "tools/call"
        case .ping: return "ping"
        case .discover: return "rpc.discover"
        case .stats: return "rpc.stats"
        }
    }
}
