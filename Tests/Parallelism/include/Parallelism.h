#ifndef FEEDWORK_TESTS_PARALLELISM_H
#define FEEDWORK_TESTS_PARALLELISM_H

/// How many tests the test process runs at once when `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`
/// is not set (see Parallelism.c).
#define FEEDWORK_TESTS_PARALLELISM "16"

#endif
