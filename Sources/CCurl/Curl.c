#include "CCurl.h"

#include <CDynamicLibrary.h>
#include <stdlib.h>

typedef CURLcode (*easy_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*easy_getinfo_function)(CURL *, CURLINFO, ...);
typedef CURLSHcode (*share_setopt_function)(CURLSH *, CURLSHoption, ...);

static CURLcode (*global_init)(long);
static CURL *(*easy_init)(void);
static void (*easy_cleanup)(CURL *);
static void (*easy_reset)(CURL *);
static CURLcode (*easy_perform)(CURL *);
static const char *(*easy_strerror)(CURLcode);
static struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
static void (*slist_free_all)(struct curl_slist *);
static easy_setopt_function easy_setopt;
static easy_getinfo_function easy_getinfo;
static CURLSH *(*share_init)(void);
static share_setopt_function share_setopt;
static CURLSHcode (*share_cleanup)(CURLSH *);

static const fw_symbol symbols[] = {
    {"curl_global_init", (void **)&global_init},
    {"curl_easy_init", (void **)&easy_init},
    {"curl_easy_cleanup", (void **)&easy_cleanup},
    {"curl_easy_reset", (void **)&easy_reset},
    {"curl_easy_perform", (void **)&easy_perform},
    {"curl_easy_strerror", (void **)&easy_strerror},
    {"curl_slist_append", (void **)&slist_append},
    {"curl_slist_free_all", (void **)&slist_free_all},
    {"curl_easy_setopt", (void **)&easy_setopt},
    {"curl_easy_getinfo", (void **)&easy_getinfo},
    {"curl_share_init", (void **)&share_init},
    {"curl_share_setopt", (void **)&share_setopt},
    {"curl_share_cleanup", (void **)&share_cleanup},
};

static fw_library curl = {
    .file = "libcurl.so.4",
    .package = "libcurl4",
    .symbols = symbols,
    .symbolCount = sizeof symbols / sizeof symbols[0],
    .once = PTHREAD_ONCE_INIT,
};

int fw_curl_load(void) { return fw_library_load(&curl); }
const char *fw_curl_load_error(void) { return fw_library_error(&curl); }
void fw_curl_preload(void) { fw_library_preload(&curl); }

CURLcode fw_curl_global_init(long flags) { return global_init(flags); }
CURL *fw_curl_easy_init(void) { return easy_init(); }
void fw_curl_easy_cleanup(CURL *handle) { easy_cleanup(handle); }
void fw_curl_easy_reset(CURL *handle) { easy_reset(handle); }
CURLcode fw_curl_easy_perform(CURL *handle) { return easy_perform(handle); }
const char *fw_curl_easy_strerror(CURLcode code) { return easy_strerror(code); }
struct curl_slist *fw_curl_slist_append(struct curl_slist *list, const char *text) {
    return slist_append(list, text);
}
void fw_curl_slist_free_all(struct curl_slist *list) { slist_free_all(list); }

CURLcode fw_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return easy_setopt(handle, option, value);
}

CURLcode fw_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return easy_setopt(handle, option, value);
}

CURLcode fw_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return easy_setopt(handle, option, value);
}

CURLcode fw_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return easy_setopt(handle, option, value);
}

CURLcode fw_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return easy_setopt(handle, option, value);
}

CURLcode fw_easy_setopt_write_function(CURL *handle, fw_data_callback callback) {
    return easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode fw_easy_setopt_header_function(CURL *handle, fw_data_callback callback) {
    return easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode fw_easy_setopt_xferinfo_function(CURL *handle, fw_xferinfo_callback callback) {
    return easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode fw_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) { return easy_getinfo(handle, info, value); }

CURLcode fw_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return easy_getinfo(handle, info, value);
}

CURLcode fw_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return easy_getinfo(handle, info, value);
}

// libcurl calls the lock functions with the kind of data it touches; each kind has its own
// mutex, in the array passed as user data.

static void share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *locks) {
    (void)handle;
    (void)access;
    pthread_mutex_lock(&((pthread_mutex_t *)locks)[data]);
}

static void share_unlock(CURL *handle, curl_lock_data data, void *locks) {
    (void)handle;
    pthread_mutex_unlock(&((pthread_mutex_t *)locks)[data]);
}

fw_share fw_share_new(void) {
    fw_share result = {NULL, NULL};
    pthread_mutex_t *locks = malloc(sizeof(pthread_mutex_t) * CURL_LOCK_DATA_LAST);
    if (locks == NULL) return result;
    for (int kind = 0; kind < CURL_LOCK_DATA_LAST; kind++) pthread_mutex_init(&locks[kind], NULL);
    CURLSH *share = share_init();
    if (share == NULL || share_setopt(share, CURLSHOPT_LOCKFUNC, share_lock) != CURLSHE_OK
        || share_setopt(share, CURLSHOPT_UNLOCKFUNC, share_unlock) != CURLSHE_OK
        || share_setopt(share, CURLSHOPT_USERDATA, (void *)locks) != CURLSHE_OK
        || share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK
        || share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK
        || share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        if (share != NULL) share_cleanup(share);
        for (int kind = 0; kind < CURL_LOCK_DATA_LAST; kind++) pthread_mutex_destroy(&locks[kind]);
        free(locks);
        return result;
    }
    result.share = share;
    result.locks = locks;
    return result;
}

void fw_share_free(fw_share share) {
    if (share.share != NULL) share_cleanup(share.share);
    if (share.locks != NULL) {
        for (int kind = 0; kind < CURL_LOCK_DATA_LAST; kind++) pthread_mutex_destroy(&share.locks[kind]);
        free(share.locks);
    }
}

CURLcode fw_easy_setopt_share(CURL *handle, CURLSH *share) { return easy_setopt(handle, CURLOPT_SHARE, share); }
