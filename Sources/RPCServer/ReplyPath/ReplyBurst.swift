#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of calls settled one after another on one thread whose replies leave together.
///
/// Without a burst, each reply a thread hands to the stdio writer may wake the writer queue (or,
/// on an idle server, cost a `write` of its own). Inside `ReplyBurst.run` the replies settled on
/// the calling thread are appended to the output in order but held: when `run` returns, this
/// thread writes them itself in one `write` if the writer is idle and the output can take them
/// without blocking (`DirectOutput`), or else hands them to the writer queue. The reader runs
/// each chunk of input it took while idle as a burst, the deadline timer settles calls whose
/// deadlines pass together in bursts of 64, and `ShopAPI`'s read lanes run up to 16 reads in a
/// row as one.
///
/// Guarantees: holding changes when replies are written, never their bytes or their order; each
/// reply still leaves exactly once, as a whole frame. A reply is held at most until its burst
/// ends, and less if the writer is busy meanwhile (it takes everything pending when it finishes
/// a write). Replies settled on other threads are never held. A burst holds everything it
/// settles, so keep it to work whose replies should go together: the reader's is one chunk of
/// input (≤ 64 KiB), the deadline timer's at most 64 timeouts, the shop's read lanes' at most 16
/// reads.
///
/// Thread-confined: a burst belongs to the thread that opened it (a thread-specific slot); bursts
/// opened while one is open join it, and only the outermost end writes. Call `run` holding no
/// lock that the reply path takes (`submit` is called under the engine's lock; the write at the
/// end is not).
public enum ReplyBurst {
    /// Runs `body` as a burst on the calling thread and writes what it held when `body` returns
    /// (or throws).
    public static func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        begin()
        defer { end(writeIfIdle: true) }
        return try body()
    }

    /// Opens a burst on the calling thread (or joins the open one). Pair with `end` on the same
    /// thread; prefer `run`.
    package static func begin() {
        ThreadBurst.current.depth += 1
    }

    /// Closes the burst `begin` opened. At the outermost end, each writer that held replies in it
    /// writes them on this thread if `writeIfIdle` and it is idle, else on its writer queue.
    package static func end(writeIfIdle: Bool) {
        guard let burst = ThreadBurst.open else { return assertionFailure("ReplyBurst.end without begin") }
        burst.depth -= 1
        if burst.depth == 0 { burst.releaseWriters(writeIfIdle: writeIfIdle) }
    }
}

/// The calling thread's burst state: how deep its bursts are nested, and the writers holding
/// replies for it. One per thread that ever opened a burst, kept in a thread-specific slot and
/// released when the thread exits; only that thread touches it.
///
/// Its properties skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`): one thread
/// owns the object, and no access overlaps another (none passes them `inout` across a call).
final class ThreadBurst {
    @exclusivity(unchecked) var depth = 0
    /// The first writer holding replies for this burst (almost always the one stdio writer), and
    /// any others after it, each once.
    @exclusivity(unchecked) private var firstWriter: OutputWriter?
    @exclusivity(unchecked) private var moreWriters: [OutputWriter] = []

    /// Called by `writer` (under its lock) as it holds a reply for this burst: true the first time
    /// this writer joins, so it counts the burst as open until `endBurst`.
    func join(_ writer: OutputWriter) -> Bool {
        guard let firstWriter else {
            firstWriter = writer
            return true
        }
        if firstWriter === writer || moreWriters.contains(where: { $0 === writer }) { return false }
        moreWriters.append(writer)
        return true
    }

    /// At the outermost end: each writer that joined writes (or hands on) what it held.
    fileprivate func releaseWriters(writeIfIdle: Bool) {
        guard let writer = firstWriter else { return }
        firstWriter = nil  // depth is 0: nothing joins meanwhile
        writer.endBurst(writeIfIdle: writeIfIdle)
        guard !moreWriters.isEmpty else { return }
        for writer in moreWriters { writer.endBurst(writeIfIdle: writeIfIdle) }
        moreWriters.removeAll(keepingCapacity: true)
    }

    /// The calling thread's burst, if one is open.
    static var open: ThreadBurst? {
        guard let slot = pthread_getspecific(key) else { return nil }
        let burst = Unmanaged<ThreadBurst>.fromOpaque(slot).takeUnretainedValue()
        return burst.depth > 0 ? burst : nil
    }

    /// The calling thread's burst state, created on first use.
    fileprivate static var current: ThreadBurst {
        if let slot = pthread_getspecific(key) { return Unmanaged<ThreadBurst>.fromOpaque(slot).takeUnretainedValue() }
        let burst = ThreadBurst()
        pthread_setspecific(key, Unmanaged.passRetained(burst).toOpaque())  // released by the key's destructor
        return burst
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slot in
            if let slot { Unmanaged<ThreadBurst>.fromOpaque(slot).release() }
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")  // only if the process is out of keys, at start-up
        return key
    }()
}
