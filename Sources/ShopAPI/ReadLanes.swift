import Dispatch
import RPCServer  // Locked: a lock ThreadSanitizer can see

/// Runs store reads on as many serial lanes as the store has read connections, each read on the
/// lane with the fewest reads queued. No more reads run at once than there are connections, so a
/// read never parks a Dispatch worker thread waiting for a connection (which made Dispatch start
/// more threads, which then contended too: catalog.get went from ~75 k/s to the figure in
/// bench/README.md). Reads queued on a lane run in order, each after the previous. An idle server's
/// single read may run on the reader's thread instead (see `run`), if the store's reads are local.
/// Thread-safe.
final class ReadLanes: Sendable {
    private let lanes: [DispatchQueue]
    private let queued: Locked<[Int]>
    /// Whether `run` may start a read on the reader's thread at all (`ShopStore.readsAreLocal`).
    private let inlineWhenIdle: Bool

    /// `count` lanes (at least one). `inlineWhenIdle` only for a store whose reads never wait on
    /// the network or another process: an inline read holds up the reader (cancel requests,
    /// signals, the next request) for as long as it runs.
    init(count: Int, inlineWhenIdle: Bool) {
        lanes = (0..<max(1, count)).map { DispatchQueue(label: "ShopAPI.read.\($0)", qos: .userInitiated) }
        queued = Locked(Array(repeating: 0, count: max(1, count)))
        self.inlineWhenIdle = inlineWhenIdle
    }

    /// Starts `read` on the lane with the fewest reads queued, or, when the caller holds the
    /// reader's `InlineStart` permission and every lane is idle, runs it right here.
    ///
    /// The inline path is what an idle server does with one request: no hand-off to a lane's
    /// thread and back. It is safe because:
    /// - it is used only for a store whose reads are local (an SQLite file: WAL readers do not
    ///   wait for writers), never for PostgreSQL, where one read could hold the reader for a
    ///   network round trip or, on a hung connection, until the call's deadline;
    /// - it runs only with every lane idle, and counts as a read on lane 0 while it runs, so no
    ///   more reads run at once than there are connections and it jumps ahead of no queued read;
    /// - the permission exists only for the last request of a chunk read when the input was idle,
    ///   with no call in flight, so the reader is held up only while nothing else waits to be read (a request arriving
    ///   meanwhile waits at most this one read, bounded by the store's page limits); a busy
    ///   store, or any request in a pipelined chunk, goes to the lanes as before;
    /// - the call is armed before it starts (its deadline fires on the engine's timer queue and
    ///   interrupts the store through the call's token, as on a lane), and it settles exactly
    ///   once whichever thread settles it; its reply is held in the reader's burst and written at
    ///   the burst's end, under the writer's back-pressure rules.
    func run(_ read: @escaping @Sendable () -> Void) {
        if inlineWhenIdle, InlineStart.take(), claimIfAllIdle() {
            read()
            queued.withLock { $0[0] -= 1 }
            return
        }
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

    /// Counts a read on lane 0 if no lane has one queued or running.
    private func claimIfAllIdle() -> Bool {
        queued.withLock { counts -> Bool in
            guard counts.allSatisfy({ $0 == 0 }) else { return false }
            counts[0] += 1
            return true
        }
    }
}
