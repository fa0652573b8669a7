import Dispatch
import Synchronization
import SharedSupport

/// Sends `notifications/progress` for one call that carries a progress token: a periodic heartbeat
/// (elapsed ms of the deadline) until the handler reports progress itself, and never after the
/// call's reply (`close()` is called before the reply is sent, under the same lock as every send,
/// so each notification is queued ahead of the reply). Thread-safe.
final class ProgressEmitter: Sendable {
    private struct State {
        var closed = false
        var handlerReports = false
        var lastProgress = -Double.infinity
    }

    private let token: JSONValue
    private let method: String
    private let channel: ReplyChannel
    private let state = Locked(State())
    private nonisolated(unsafe) let heartbeat: any DispatchSourceTimer  // DispatchSource methods are thread-safe; the existential is not marked Sendable

    init(token: JSONValue, method: String, channel: ReplyChannel, startNanos: UInt64, deadlineMs: Int,
         intervalMs: Int, timerQueue: DispatchQueue) {
        self.token = token
        self.method = method
        self.channel = channel
        heartbeat = DispatchSource.makeTimerSource(queue: timerQueue)
        let interval = max(1, intervalMs)
        heartbeat.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval), leeway: .milliseconds(5))
        heartbeat.setEventHandler { [weak self] in
            guard let self else { return }
            let elapsedMs = Double(Uptime.millisecondsSince(startNanos))
            self.send(progress: elapsedMs, total: Double(deadlineMs), message: "\(method) running", fromHandler: false)
        }
        heartbeat.resume()
    }

    deinit {
        heartbeat.cancel()
    }

    /// A report from the handler; stops the heartbeat.
    func report(progress: Double, total: Double?, message: String?) {
        send(progress: progress, total: total, message: message, fromHandler: true)
    }

    func close() {
        state.withLock { $0.closed = true }
        heartbeat.cancel()
    }

    private func send(progress: Double, total: Double?, message: String?, fromHandler: Bool) {
        state.withLock { state in
            guard !state.closed else { return }
            if fromHandler {
                if !state.handlerReports { heartbeat.cancel() }
                state.handlerReports = true
            } else if state.handlerReports {
                return
            }
            guard progress > state.lastProgress else { return }  // progress only increases
            state.lastProgress = progress
            var params: JSONObject = ["progressToken": token, "progress": Self.number(progress)]
            if let total { params.append("total", Self.number(total)) }
            if let message { params.append("message", .string(message)) }
            channel.send(ReplyEncoder.notification(method: "notifications/progress", params: .object(params)))
        }
    }

    private static func number(_ value: Double) -> JSONValue {
        if let exact = Int64(exactly: value) { return .int(exact) }
        return .double(value)
    }
}
