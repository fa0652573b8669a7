#if canImport(Glibc)
import Glibc
#endif

/// Process-wide allocator settings for a long-running server.
package enum MallocTuning {
    /// Caps glibc's malloc arenas. By default glibc gives each thread that allocates its own arena
    /// (up to 8 per core), and a pipelined burst spread over Dispatch's threads leaves each one
    /// holding freed memory: 1 M pipelined pings peaked at ~31 MB RSS with the default and ~23 MB
    /// with 2 arenas, at the same throughput (bench/HISTORY.md). Call first thing in `main`,
    /// before any other thread starts. A no-op where glibc's `mallopt` is absent.
    package static func limitArenas(_ count: Int32 = 2) {
        #if canImport(Glibc)
        // Swift's Glibc module does not include <malloc.h>; look `mallopt` up instead.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mArenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }  // RTLD_DEFAULT
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mArenaMax, count)
        #endif
    }
}
