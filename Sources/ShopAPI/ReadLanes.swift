import Dispatch
import RPCServer  // Locked: a lock ThreadSanitizer can see

/// Runs store reads on as many serial lanes as the store has read connections, each read on the
/// lane with the fewest reads queued. No more reads run at once than there are connections, so a
/// read never parks a Dispatch worker thread waiting for a connection (which made Dispatch start
/// more threads, which then contended too: catalog.get went from ~75 k/s to the figure in
/// bench/README.md). Reads queued on a lane run in order, each after the previous. An idle server's
/// single read may run on the reader's thread instead (see `run`), if the store's reads are local.
///
/// A lane keeps its own list of queued reads and is handed to its Dispatch queue only when it goes
/// from idle to busy; it then runs every read queued meanwhile (`drainOnLane`). Under pipelined
/// load that is one hop for a run of reads instead of one block copy and one `async` per read.
/// Thread-safe.
final class ReadLanes: Sendable {
    /// A read as queued: in a struct, so the array stores the closure as it is (an array of bare
    /// closures would wrap each in a reabstraction thunk, one allocation per read).
    private struct QueuedRead {
        let run: @Sendable () -> Void
    }

    private struct State {
        /// Reads queued or running, per lane.
        var counts: [Int]
        /// Reads queued and not started, per lane, in arrival order.
        var waiting: [[QueuedRead]]
        /// Whether the lane's drain is scheduled or running, per lane.
        var draining: [Bool]
    }

    private let lanes: [DispatchQueue]
    private let state: Locked<State>
    /// Whether `run` may start a read on the reader's thread at all (`ShopStore.readsAreLocal`).
    private let inlineWhenIdle: Bool

    /// `count` lanes (at least one). `inlineWhenIdle` only for a store whose reads never wait on
    /// the network or another process: an inline read holds up the reader (cancel requests,
    /// signals, the next request) for as long as it runs.
    init(count: Int, inlineWhenIdle: Bool) {
        let count = max(1, count)
        lanes = (0..<count).map { DispatchQueue(label: "ShopAPI.read.\($0)", qos: .userInitiated) }
        state = Locked(State(counts: Array(repeating: 0, count: count), waiting: Array(repeating: [], count: count),
                             draining: Array(repeating: false, count: count)))
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
            state.withLock { $0.counts[0] -= 1 }
            return
        }
        let scheduled = state.withLock { state -> Int? in
            let lane = state.counts.indices.min { state.counts[$0] < state.counts[$1] }!
            state.counts[lane] += 1
            state.waiting[lane].append(QueuedRead(run: read))
            guard !state.draining[lane] else { return nil }  // its drain will find this read
            state.draining[lane] = true
            return lane
        }
        if let lane = scheduled {
            lanes[lane].async { self.drainOnLane(lane) }
        }
    }

    /// Runs the lane's queued reads in order, and any queued while they run, until none is left;
    /// then marks the lane idle (under the same lock as `run` queues, so no read is left behind).
    private func drainOnLane(_ lane: Int) {
        dispatchPrecondition(condition: .onQueue(lanes[lane]))
        var batch: [QueuedRead] = []
        while true {
            state.withLock { state in
                swap(&batch, &state.waiting[lane])  // the emptied batch's storage is reused for the next arrivals
                if batch.isEmpty { state.draining[lane] = false }
            }
            if batch.isEmpty { return }
            for read in batch {
                read.run()
                state.withLock { $0.counts[lane] -= 1 }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Counts a read on lane 0 if no lane has one queued or running.
    private func claimIfAllIdle() -> Bool {
        state.withLock { state -> Bool in
            guard state.counts.allSatisfy({ $0 == 0 }) else { return false }
            state.counts[0] += 1
            return true
        }
    }
}
