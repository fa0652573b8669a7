import Dispatch
import Foundation
@testable import ShopAPI

/// Collects completions. Thread-safe.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let called = DispatchSemaphore(value: 0)
    private var stored: Result<T, ShopError>?
    private var calls = 0

    func record(_ result: Result<T, ShopError>) {
        lock.withLock {
            calls += 1
            if stored == nil { stored = result }
        }
        called.signal()
    }

    func wait() -> Bool { called.wait(timeout: .now() + 10) == .success }
    var result: Result<T, ShopError>? { lock.withLock { stored } }
    var callCount: Int { lock.withLock { calls } }
}
