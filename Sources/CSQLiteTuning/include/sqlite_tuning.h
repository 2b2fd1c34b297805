// SQLite settings that its C API offers only through variadic functions, which Swift cannot call.
#ifndef FEEDWORK_SQLITE_TUNING_H
#define FEEDWORK_SQLITE_TUNING_H

/// Turns off SQLite's memory statistics, which take a process-wide mutex on every allocation.
/// Takes effect only before SQLite is initialized (before the first connection opens); returns
/// an SQLite result code, `SQLITE_MISUSE` (21) when called too late.
int feedwork_sqlite_disable_memory_statistics(void);

#endif
