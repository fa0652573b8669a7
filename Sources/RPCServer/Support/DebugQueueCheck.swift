import Dispatch

/// `dispatchPrecondition(condition: .onQueue(queue))` in debug builds (every test run,
/// ThreadSanitizer's included) and nothing in release builds, as `assert`. For the helpers on a
/// request's path whose entry point already checks its queue in every build: there, a check costs
/// about 60 instructions, and a request passed seven of them on the reader queue alone (as
/// `QueueBound`'s accessors did before).
@inline(__always)
func debugCheckOnQueue(_ queue: DispatchQueue) {
    #if DEBUG
    dispatchPrecondition(condition: .onQueue(queue))
    #endif
}
