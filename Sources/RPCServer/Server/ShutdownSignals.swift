import Dispatch
import SharedSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGTERM and SIGINT into a call of `handler` on `queue` (the first one only), through
/// `DispatchSource` signal sources, so no work happens in an async-signal context.
///
/// Linux delivers a process-directed signal to any thread that does not block it; libdispatch
/// reads signals from a `signalfd`, which only sees signals still pending. Its worker threads block
/// them, but the thread that creates this object (the main thread) would not, so a signal delivered
/// there could be consumed by a plain handler and lost (a SIGTERM that never stops the server). So
/// `init` blocks both signals in the calling thread, and every thread it starts later inherits that.
/// `cancelAndWait()` ends the sources before the process exits. Thread-safe.
package final class ShutdownSignals: Sendable {
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]  // DispatchSource methods are thread-safe; the existential is not marked Sendable
    /// Left once per source by its cancel handler, which runs after its last event handler.
    private let cancelled = DispatchGroup()

    /// - Important: call from the main thread, before it starts threads that are not Dispatch's.
    package init(queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let once = OneShot()
        let cancelled = cancelled
        sources = [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)  // let the dispatch source see it instead of the default action
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                if once.claim() { handler(signalNumber) }
            }
            cancelled.enter()
            source.setCancelHandler { cancelled.leave() }
            source.resume()
            return source
        }
    }

    /// Cancels both sources and waits until neither handler can run again.
    /// - Important: never call on `queue` (the cancel handlers run there).
    package func cancelAndWait() {
        for source in sources { source.cancel() }
        cancelled.wait()
    }
}
