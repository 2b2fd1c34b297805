// The test process runs at most 16 tests at once, however `swift test` is called.
//
// Unbounded, Swift Testing starts every test at once: the process then holds about 2,100 file
// descriptors at its peak, and past about 1,300 Foundation's `Process.run()` on Linux can crash
// (it reads 256 bytes of each entry of /proc/self/fd, past the short ones:
// swift-corelibs-foundation #5472). At 16, with released SQLite store locks closing their
// descriptors once the store is deleted (SQLiteStoreLock), one run peaked at 383.
// Swift Testing reads the width from the environment once main runs; this sets it before, in a
// constructor of the test binary, unless the caller chose one.
#include <stdlib.h>

#include "Parallelism.h"

__attribute__((constructor)) static void feedwork_tests_cap_parallelism(void) {
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", FEEDWORK_TESTS_PARALLELISM, 0);
}
