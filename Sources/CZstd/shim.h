// Zstandard from the system (libzstd-dev), for compressing cached response bodies.
#ifndef FEEDWORK_CZSTD_SHIM_H
#define FEEDWORK_CZSTD_SHIM_H
#include <zstd.h>
#endif
