import Foundation
@testable import ShopAPI

/// Reports interrupted from its `n`-th `isInterrupted` read on (no handlers ever fire), to test
/// checks between statements.
final class CountdownInterruption: ShopInterruption, @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int

    init(interruptedFromRead n: Int) {
        remaining = n
    }

    var isInterrupted: Bool {
        lock.withLock { remaining -= 1; return remaining <= 0 }
    }

    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        {}
    }
}
