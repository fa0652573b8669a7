import Synchronization

/// A flag that can be claimed once, by whichever of several racing parties gets there first.
/// Thread-safe.
final class OneShot: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
