import Dispatch
import RPCServer  // Locked: a lock ThreadSanitizer can see

/// Runs store reads on as many serial lanes as the store has read connections, each read on the
/// lane with the fewest reads queued. No more reads run at once than there are connections, so a
/// read never parks a Dispatch worker thread waiting for a connection (which made Dispatch start
/// more threads, which then contended too: catalog.get went from ~75 k/s to the figure in
/// bench/README.md). Reads queued on a lane run in order, each after the previous. Thread-safe.
final class ReadLanes: Sendable {
    private let lanes: [DispatchQueue]
    private let queued: Locked<[Int]>

    init(count: Int) {
        lanes = (0..<max(1, count)).map { DispatchQueue(label: "ShopAPI.read.\($0)", qos: .userInitiated) }
        queued = Locked(Array(repeating: 0, count: max(1, count)))
    }

    func run(_ read: @escaping @Sendable () -> Void) {
        let lane = queued.withLock { counts -> Int in
            let lane = counts.indices.min { counts[$0] < counts[$1] }!
            counts[lane] += 1
            return lane
        }
        lanes[lane].async {
            read()
            self.queued.withLock { $0[lane] -= 1 }
        }
    }
}
