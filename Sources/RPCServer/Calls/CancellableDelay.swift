import Dispatch
import SharedSupport

/// Runs one of two actions, exactly once: `then` after a delay, or `orElse` as soon as the token
/// is cancelled, whichever comes first. Used for `--simulate-latency`, so an injected delay is
/// cancelled with its call like real work. Thread-safe.
final class CancellableDelay: Sendable {
    private nonisolated(unsafe) let timer: any DispatchSourceTimer  // DispatchSource methods are thread-safe; the existential is not marked Sendable
    private let decided = OneShot()

    private init(queue: DispatchQueue) {
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    static func start(milliseconds: Int, queue: DispatchQueue, token: CancellationToken,
                      then: @escaping @Sendable () -> Void, orElse: @escaping @Sendable () -> Void) {
        let delay = CancellableDelay(queue: queue)
        let registration = token.onCancel {
            guard delay.decided.claim() else { return }
            delay.timer.cancel()
            orElse()
        }
        delay.timer.schedule(deadline: .now() + .milliseconds(milliseconds))
        delay.timer.setEventHandler {
            delay.timer.cancel()  // also releases this handler, breaking the timer ↔ delay cycle
            registration.remove()
            guard delay.decided.claim() else { return }
            then()
        }
        delay.timer.resume()
    }
}
