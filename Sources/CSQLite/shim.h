#include <sqlite3.h>

/// Turns off SQLite's memory statistics for the whole process (`SQLITE_CONFIG_MEMSTATUS`), so
/// that its allocator no longer takes a process-wide mutex on every allocation and free (about
/// twenty per store read). shop-rpc uses neither `sqlite3_memory_used` nor a heap limit. Takes
/// effect only before SQLite initialises (the first connection opened in the process); later it
/// returns `SQLITE_MISUSE` and changes nothing. `sqlite3_config` is variadic, which Swift cannot
/// call, hence this wrapper.
static inline int shop_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
