import Dispatch
import Foundation

/// Turns SIGTERM and SIGINT into a call of `handler` on `queue` (the first one only), through
/// `DispatchSource` signal sources, so no work happens in an async-signal context.
public final class ShutdownSignals: Sendable {
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    public init(queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        let once = OneShot()
        sources = [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)  // let the dispatch source see it instead of the default action
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                if once.claim() { handler(signalNumber) }
            }
            source.resume()
            return source
        }
    }
}
