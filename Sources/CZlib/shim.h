// zlib from the system (zlib1g-dev), for compressing cached response bodies.
#ifndef FEEDWORK_CZLIB_SHIM_H
#define FEEDWORK_CZLIB_SHIM_H
#include <zlib.h>
#endif
