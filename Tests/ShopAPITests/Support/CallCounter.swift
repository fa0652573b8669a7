import Foundation

/// Counts calls per index. Thread-safe.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int]

    init(size: Int) {
        values = Array(repeating: 0, count: size)
    }

    func increment(_ index: Int) { lock.withLock { values[index] += 1 } }
    var counts: [Int] { lock.withLock { values } }
}
