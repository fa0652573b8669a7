import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SharedSupport

/// Reads standard input on a thread of its own, one bounded `read(2)` at a time, and feeds the
/// connection on the reader queue. While the reader queue is busy, the thread reads the next chunk
/// while the queue decodes the last one, with at most one chunk handed over and not yet taken, so
/// at most two reads are held beyond the connection's own buffer; when the queue has caught up,
/// the chunk is taken on this thread through `queue.sync` (see `deliver`), with no wake-up. It reads only while the connection wants input, so a
/// full connection stops reading and the client's writes block on the pipe (back-pressure). End
/// of input is reported once, after every chunk; a stopped reader hands nothing more over.
///
/// **Waiting for input.** The thread waits in `read(2)` itself, so a request that arrives costs one
/// system call, not a `poll(2)` and then a `read(2)` (about 0.9 µs of a catalog.get's 15 µs round
/// trip at one in flight here; bench/HISTORY.md). `poll` is used only where a read cannot wait:
/// while the connection wants no input (paused until the wake pipe says so) and when the parent
/// gave a non-blocking descriptor (`EAGAIN`). A read blocked in the kernel cannot be woken, so
/// `closeAndWait` does not wait for the thread to return: it waits until the thread is no longer
/// handling what a read returned (`handling`), and whatever a later read returns is dropped,
/// never handed over. The thread may then stay in that read until input arrives or the process
/// ends; it holds nothing but this reader.
///
/// **Why not DispatchIO.** On Linux, libdispatch's epoll back end frees a descriptor's muxnote on
/// a worker thread (`EPOLL_CTL_DEL` when a stream read sees end of input) while its manager thread
/// may still be delivering an `EPOLLHUP` for it: a use-after-free that crashed the server in
/// `_dispatch_event_loop_drain` at end of input (strace showed the two threads interleaved; about
/// 1 session in 10 under ThreadSanitizer's timing, 1 in a few hundred in release builds). A plain
/// thread reading stdin keeps it out of Dispatch's event loop entirely. A self-pipe wakes the
/// thread where it polls. The descriptor's blocking mode is left as the parent gave it.
///
/// - Important: `receiveOnReaderQueue`/`endOfInputOnReaderQueue` run on the engine's reader queue;
///   the public methods may be called from any thread (`closeAndWait` from any but the reader queue).
package final class StdinReader: Sendable {
    package static let readSize = 64 * 1024

    /// What the reading thread and the reader queue share.
    private struct Control {
        /// The connection does not want input now; the thread waits for the wake pipe.
        var paused = false
        /// Reading is over for good (stop, end of input, or a read error).
        var stopped = false
    }

    private let fd: Int32
    private let connection: RPCConnection
    private let queue: DispatchQueue
    private let control = Locked(Control())
    /// A pipe whose read end the thread polls beside `fd`; a byte on it means "look at `control`".
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Entered while the thread handles what a read returned (from the read's return until the
    /// thread waits for input again or returns): `closeAndWait` waits for it to be left.
    private let handling = DispatchGroup()
    /// One chunk may be on its way to the reader queue while the thread reads the next.
    private let handOff = DispatchSemaphore(value: 1)

    package init(fileDescriptor: Int32, connection: RPCConnection) {
        fd = fileDescriptor
        self.connection = connection
        queue = connection.engine.readerQueue
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            Log.warn("cannot create the stdin wake pipe (\(String(cString: strerror(errno)))); polling instead")
            ends = [-1, -1]
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    /// Starts reading. Call once. Any thread.
    package func start() {
        queue.async {
            self.connection.onWantsInput { self.resumeOnReaderQueue() }
        }
        handling.enter()  // the thread starts out handling: it checks `control` before it reads
        let started = DetachedThread.start { [self] in
            readLoop()
            handling.leave()
        }
        // Without a thread nothing can be read: the process is out of threads at start-up.
        precondition(started, "cannot start the stdin thread")
    }

    /// Stops reading for good (shutdown). Any thread.
    package func stop() {
        control.withLock { $0.stopped = true }
        wake()
    }

    /// Stops reading and waits until no chunk of input can reach the connection any more: the
    /// thread is handing nothing over (it has returned, or waits in a read whose bytes it will
    /// drop), and the last chunk (or end of input) it handed over has been taken. Any thread but
    /// the reader queue (the thread may be handing a chunk to it).
    package func closeAndWait() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        stop()
        handling.wait()
        handOff.wait()
        handOff.signal()
    }

    // MARK: - Reader queue

    private func resumeOnReaderQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        control.withLock { $0.paused = false }
        wake()
    }

    // MARK: - Reading thread

    private func readLoop() {
        // One buffer for every read, owned by this thread: a chunk taken on this thread is decoded
        // straight from it, and only a chunk handed to another thread is copied (its bytes only),
        // instead of a fresh 64 KiB array (malloc, page faults, free) per read.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let (paused, stopped) = control.withLock { ($0.paused, $0.stopped) }
            if stopped { return }
            if paused {
                waitOutsideHandling { _ = waitUntilReadable(orOnlyWoken: true) }
                continue
            }
            let count = waitOutsideHandling { read(fd, buffer.baseAddress, buffer.count) }
            let readError = count < 0 ? errno : 0
            // Checked after the read (under the lock `stop` sets it with): a stopped reader drops
            // what a read returned, since `closeAndWait` may have returned while it waited.
            if control.withLock({ $0.stopped }) { return }
            if count > 0 {
                deliver(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } else if count < 0, readError == EINTR {
                continue
            } else if count < 0, readError == EAGAIN || readError == EWOULDBLOCK {
                // A non-blocking descriptor: wait for input (or the wake pipe) in poll.
                waitOutsideHandling { _ = waitUntilReadable(orOnlyWoken: false) }
            } else {
                if count < 0 { Log.warn("reading stdin failed: \(String(cString: strerror(readError)))") }
                control.withLock { $0.stopped = true }
                handOff.wait()  // end of input goes after the last chunk
                queue.async {
                    self.connection.endOfInputOnReaderQueue()
                    self.handOff.signal()
                }
                return
            }
        }
    }

    /// Runs `wait` (a read or a poll that may block for as long as the client is quiet) outside
    /// `handling`, so that `closeAndWait` does not wait for it.
    private func waitOutsideHandling<T>(_ wait: () -> T) -> T {
        handling.leave()
        defer { handling.enter() }
        return wait()
    }

    /// Hands one chunk to the connection on the reader queue (once the previous one was taken),
    /// and pauses reading there if the connection wants no more.
    ///
    /// Adaptive: if the previous chunk was already taken (the reader queue has caught up with the
    /// input, as it has whenever a client waits for each reply), the chunk is handed over with
    /// `queue.sync`, which on an idle serial queue runs the block on this thread: no wake-up of a
    /// Dispatch worker and no context switch between the read and the decode. If the reader queue
    /// is still busy with the previous chunk (a pipelining client), the chunk goes over with
    /// `queue.async`, so this thread reads the next chunk while the queue decodes this
    /// one. Either way the block runs on the reader queue (its `dispatchPrecondition`s hold),
    /// chunks are taken in read order, and at most one chunk waits untaken.
    private func deliver(_ bytes: UnsafeRawBufferPointer) {
        if handOff.wait(timeout: .now()) == .success {
            queue.sync { takeOnReaderQueue(bytes, inputIdle: true) }
            handOff.signal()
        } else {
            let chunk = [UInt8](bytes)
            handOff.wait()
            queue.async {
                chunk.withUnsafeBytes { self.takeOnReaderQueue($0, inputIdle: false) }
                self.handOff.signal()
            }
        }
    }

    private func takeOnReaderQueue(_ chunk: UnsafeRawBufferPointer, inputIdle: Bool) {
        debugCheckOnQueue(queue)
        // After a stop the connection itself ignores input; nothing is dropped here.
        connection.receiveOnReaderQueue(chunk, inputIdle: inputIdle)
        // Decided on the reader queue, where `resumeOnReaderQueue` also runs: a resume can
        // only come after this pause, never be lost before it.
        if !connection.wantsInput { control.withLock { $0.paused = true } }
    }

    /// Blocks in `poll` until stdin is readable (or at its end) and returns true, or until the
    /// wake pipe is written and returns false. With `orOnlyWoken`, waits for the wake pipe only.
    private func waitUntilReadable(orOnlyWoken: Bool) -> Bool {
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if !orOnlyWoken { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        // Without a wake pipe (its creation failed), look at `control` every 10 ms instead.
        let ready = poll(&descriptors, nfds_t(descriptors.count), wakeRead >= 0 ? -1 : 10)
        if ready < 0 { return false }  // EINTR: look again
        if descriptors[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &sink, sink.count) > 0 {}
            return false
        }
        return descriptors.count > 1 && descriptors[1].revents != 0
    }

    private func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already holds a wake-up
    }
}
