import Foundation
@testable import ShopAPI

/// A controllable `ShopInterruption`. Thread-safe (one lock). Counts handlers so tests can check
/// that the store unregisters what it registers.
final class TestInterruption: ShopInterruption, @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted: Bool
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandlerId = 0
    private(set) var registrations = 0

    init(interrupted: Bool = false) {
        self.interrupted = interrupted
    }

    var isInterrupted: Bool {
        lock.withLock { interrupted }
    }

    /// Handlers registered and not yet unregistered.
    var activeHandlerCount: Int {
        lock.withLock { handlers.count }
    }

    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let (id, fireNow) = lock.withLock { () -> (Int, Bool) in
            nextHandlerId += 1
            registrations += 1
            if !interrupted { handlers[nextHandlerId] = action }
            return (nextHandlerId, interrupted)
        }
        if fireNow { action() }
        return { [weak self] in
            guard let self else { return }
            lock.withLock { _ = handlers.removeValue(forKey: id) }
        }
    }

    /// Marks interrupted and runs every registered handler once.
    func interrupt() {
        let toRun = lock.withLock { () -> [@Sendable () -> Void] in
            interrupted = true
            defer { handlers.removeAll() }
            return Array(handlers.values)
        }
        toRun.forEach { $0() }
    }

    /// Runs every registered handler without marking interrupted (simulates a late-arriving
    /// interrupt racing with unregistration).
    func fireHandlersWithoutMarking() {
        let toRun = lock.withLock { Array(handlers.values) }
        toRun.forEach { $0() }
    }
}
