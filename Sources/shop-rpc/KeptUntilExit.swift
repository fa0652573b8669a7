import SharedSupport  // Locked

/// What a command leaves alive until the process ends. When `serve` returns, a handler that outlived
/// its deadline may still be using the store, the inventory client and the method table on another
/// thread; released on the way back to `main`, they would close connections and stop threads under
/// it, the teardown `StdioServer.exitProcess` (`_exit`) exists to avoid. Kept here, they are never
/// released: `main` ends the process with them alive. Thread-safe.
enum KeptUntilExit {
    private static let objects = Locked<[any Sendable]>([])

    /// Keeps `object` alive until the process ends.
    static func keep(_ object: any Sendable) {
        objects.withLock { $0.append(object) }
    }
}
