import Foundation
@testable import ShopAPI

/// An interruption whose first `isInterrupted` read blocks until `open()`; it is never
/// interrupted. Lets a test hold the writer inside a group while it submits more writes.
final class GateInterruption: ShopInterruption, @unchecked Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var reads = 0

    var isInterrupted: Bool {
        let isFirst = lock.withLock { reads += 1; return reads == 1 }
        if isFirst {
            entered.signal()
            gate.wait()
        }
        return false
    }

    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        {}
    }

    /// Waits until some thread is blocked in `isInterrupted`.
    func waitUntilEntered(timeout: DispatchTime = .now() + 10) -> Bool {
        entered.wait(timeout: timeout) == .success
    }

    func open() {
        gate.signal()
    }
}
