import Dispatch
import RPCServer  // InlineStart, ReplyBurst
import SharedSupport  // Locked
import ShopAPI

/// Runs store reads in arrival order, at most as many at once as the store has read connections:
/// queued reads wait in one first-in-first-out list, and as many serial lanes (Dispatch queues)
/// as there are connections take them from its head, one read at a time. So a read never parks a
/// Dispatch worker thread waiting for a connection (which makes Dispatch start more threads, which
/// then contend too; bench/HISTORY.md has the figures), and a read waits only for the reads that
/// arrived before it, never behind one lane whose thread the scheduler happens to have paused
/// while the others are free (per-lane lists put that wait in catalog.get's latency tail at 64 in
/// flight). An idle server's single read may run on the
/// reader's thread instead (see `run`), if the store's reads are local.
///
/// A lane is handed to its Dispatch queue only when it goes from idle to busy, and then takes
/// reads until the list is empty (`drainOnLane`): under load, one hop for a run of reads instead
/// of one `async` per read. It runs up to `readsPerBurst` reads in a row as a `ReplyBurst`, so
/// their replies leave in one write instead of one writer wake-up each.
/// Thread-safe.
final class ReadLanes: Sendable {
    /// Reads a lane runs in a row before the replies it holds leave (`ReplyBurst`): at most this
    /// many reads' time is added to a reply's wait, and under pipelined load the writer gets
    /// replies in batches of this many per lane.
    static let readsPerBurst = 16

    /// A read as queued: in a struct, so the array stores the closure as it is (an array of bare
    /// closures would wrap each in a reabstraction thunk, one allocation per read).
    private struct QueuedRead {
        let run: @Sendable () -> Void
    }

    /// Reads queued and not started, oldest first: an array consumed from `head`, compacted once
    /// the consumed part is at least half of it (amortised O(1) per read, storage reused).
    private struct WaitingReads {
        private var reads: [QueuedRead] = []
        private var head = 0

        var isEmpty: Bool { head == reads.count }

        mutating func append(_ read: QueuedRead) {
            reads.append(read)
        }

        mutating func popFirst() -> QueuedRead? {
            guard head < reads.count else { return nil }
            let read = reads[head]
            head += 1
            if head == reads.count {
                reads.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= reads.count {
                reads.removeFirst(head)
                head = 0
            }
            return read
        }
    }

    private struct State {
        var waiting = WaitingReads()
        /// Lanes not draining, most recently idle last (its thread is the likeliest still warm).
        var idleLanes: [Int]
        /// Reads running on the reader's thread (0 or 1); each holds a connection as a lane does.
        var inlineReads = 0

        /// The idle lane to start, taken off the idle list, if a read waits and a connection is
        /// free (fewer lanes draining and inline reads than connections).
        mutating func laneToStart() -> Int? {
            guard !waiting.isEmpty, idleLanes.count > inlineReads else { return nil }
            return idleLanes.popLast()
        }
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
        state = Locked(State(idleLanes: Array((0..<count).reversed())))
        self.inlineWhenIdle = inlineWhenIdle
    }

    /// Queues `read` and starts an idle lane if a connection is free, or, when the caller holds
    /// the reader's `InlineStart` permission and no read is queued or running, runs it right here.
    ///
    /// The inline path is what an idle server does with one request: no hand-off to a lane's
    /// thread and back. It is safe because:
    /// - it is used only for a store whose reads are local (an SQLite file: WAL readers do not
    ///   wait for writers), never for PostgreSQL, where one read could hold the reader for a
    ///   network round trip or, on a hung connection, until the call's deadline;
    /// - it runs only with every lane idle and nothing queued, and holds a connection while it
    ///   runs (a read queued meanwhile starts a lane only if another connection is free, and one
    ///   is started for it when the inline read ends), so no more reads run at once than there
    ///   are connections and it jumps ahead of no queued read;
    /// - the permission exists only for the last request of a chunk read when the input was idle,
    ///   with no call in flight, so the reader is held up only while nothing else waits to be read (a request arriving
    ///   meanwhile waits at most this one read, bounded by the store's page limits); a busy
    ///   store, or any request in a pipelined chunk, goes to the lanes;
    /// - the call is armed before it starts (its deadline fires on the engine's timer queue and
    ///   interrupts the store through the call's token, as on a lane), and it settles exactly
    ///   once whichever thread settles it; its reply is held in the reader's burst and written at
    ///   the burst's end, under the writer's back-pressure rules.
    func run(_ read: @escaping @Sendable () -> Void) {
        let lane: Int?
        if inlineWhenIdle, InlineStart.take(), claimIfAllIdle() {
            read()
            lane = state.withLock { state in
                state.inlineReads -= 1
                return state.laneToStart()  // for a read queued while this one held a connection
            }
        } else {
            lane = state.withLock { state in
                state.waiting.append(QueuedRead(run: read))
                return state.laneToStart()
            }
        }
        if let lane { lanes[lane].async { self.drainOnLane(lane) } }
    }

    /// Takes reads from the head of the list and runs them, `readsPerBurst` to a burst, until the
    /// list is empty; then the lane is idle again (under the same lock as `run` queues, so no read
    /// is left behind).
    private func drainOnLane(_ lane: Int) {
        dispatchPrecondition(condition: .onQueue(lanes[lane]))
        var listEmptied = false
        while !listEmptied {
            ReplyBurst.run {
                for _ in 0..<Self.readsPerBurst {
                    guard let read = nextReadOrIdle(lane) else {
                        listEmptied = true
                        return
                    }
                    read.run()
                }
            }
        }
    }

    /// The oldest queued read, or nil after marking `lane` idle if none is queued.
    private func nextReadOrIdle(_ lane: Int) -> QueuedRead? {
        state.withLock { state -> QueuedRead? in
            if let read = state.waiting.popFirst() { return read }
            state.idleLanes.append(lane)
            return nil
        }
    }

    /// Counts an inline read if no read is queued or running.
    private func claimIfAllIdle() -> Bool {
        state.withLock { state -> Bool in
            guard state.inlineReads == 0, state.idleLanes.count == lanes.count, state.waiting.isEmpty else { return false }
            state.inlineReads = 1
            return true
        }
    }
}
