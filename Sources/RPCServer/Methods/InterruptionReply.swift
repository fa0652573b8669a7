/// How a call that passes its deadline, is cancelled by its client or is cut off by shutdown is
/// answered: at once, or once its work has stopped. Set per method (`MethodSpec.interruptionReply`).
public enum InterruptionReply: Sendable, Equatable {
    /// At once (-32001, -32800 or -32002); the work is cancelled through the call's token and a
    /// late result is discarded. For work a late result cannot make untrue: reads, or work the
    /// client can look up and repeat.
    case immediately

    /// Once the handler has finished: its result if it completed the work anyway (a write that
    /// had committed), otherwise the deadline, cancel or shutdown error, which then means the work
    /// was not done. A call interrupted before its handler started is answered at once and its
    /// handler never runs. The token fires as with `immediately`, and the handler must stop
    /// promptly when it does: its reply waits for it. For writes, so that an error never reports
    /// work that was done.
    case afterWorkStops
}
