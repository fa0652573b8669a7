/// What ended a call before its handler did: its deadline, its client's cancel, or shutdown.
enum CallInterruption: Sendable, Hashable {
    case deadline
    /// `sendsReply` false: the call ends without a reply (an MCP `notifications/cancelled`).
    case clientCancel(sendsReply: Bool)
    case shutdown

    /// Whether the call's reply is sent at all.
    var sendsReply: Bool {
        if case .clientCancel(let sendsReply) = self { return sendsReply }
        return true
    }

    /// How the statistics count a call this interruption ended.
    var ending: CallEnding {
        switch self {
        case .deadline: .deadline
        case .clientCancel: .clientCancel
        case .shutdown: .shutdown
        }
    }
}
