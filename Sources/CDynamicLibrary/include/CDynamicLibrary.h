// Loading a shared library at run time instead of at start-up, for the C libraries that only
// some commands need (libcurl to fetch, libpq for a PostgreSQL store): linked in, they and the
// 30-odd libraries they pull (OpenSSL, GnuTLS, Kerberos, LDAP...) were mapped and relocated at
// every start of every command.
#ifndef FEEDWORK_CDYNAMICLIBRARY_H
#define FEEDWORK_CDYNAMICLIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// One function to look up: its name in the library, and where its address goes.
typedef struct {
    const char *name;
    void **address;
} fw_symbol;

/// A library loaded at most once, by whichever thread asks first; the others wait for it.
typedef struct {
    /// The file name to load, such as `libcurl.so.4`.
    const char *file;
    /// Debian's package that holds `file`, for the message when it is missing.
    const char *package;
    const fw_symbol *symbols;
    size_t symbolCount;
    pthread_once_t once;
    /// 1 once every symbol was found, 0 otherwise.
    int loaded;
    /// Why loading failed: the loader's own message, naming the file or the symbol.
    char error[512];
} fw_library;

/// Loads `library` and looks up its symbols, the first time; returns 1 when they are all there.
/// Safe from any thread: a caller arriving while another thread loads waits for it.
int fw_library_load(fw_library *library);

/// Why loading failed: the loader's message naming the file and its package, or the missing
/// function; empty when it did not fail.
const char *fw_library_error(const fw_library *library);

/// Starts loading `library` on a thread of its own and returns at once, so that the first use
/// finds it loaded; called again, its thread finds the library loaded or waits for the load
/// under way. While the library loads, `pthread_create` on any thread waits for it.
void fw_library_preload(fw_library *library);

#endif
