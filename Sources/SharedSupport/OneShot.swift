import Synchronization

/// A flag that can be claimed once, by whichever of several racing parties gets there first.
/// Thread-safe. The engine's races (a delayed start against its cancel, a signal handled once) and
/// the SQLite group writer's (a queued write claimed by the writer or by its interruption) use it.
package final class OneShot: Sendable {
    private let claimed = Atomic<Bool>(false)

    package init() {}

    /// True for the first caller only.
    package func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
