// Non-variadic wrappers around libcurl's variadic setters and getters, which Swift cannot call.
#ifndef FEEDWORK_CCURL_SHIM_H
#define FEEDWORK_CCURL_SHIM_H

#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>

static inline CURLcode fw_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fw_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fw_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fw_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fw_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*fw_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode fw_easy_setopt_write_function(CURL *handle, fw_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode fw_easy_setopt_header_function(CURL *handle, fw_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

typedef int (*fw_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
    curl_off_t ulnow);

static inline CURLcode fw_easy_setopt_xferinfo_function(CURL *handle, fw_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode fw_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode fw_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode fw_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

// A share handle, so that several easy handles (each on a thread of its own) use one pool of
// connections, one DNS cache and one TLS session cache. libcurl calls the lock functions with
// the kind of data it touches; each kind has its own mutex, in the array passed as user data.

static inline void fw_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *locks) {
    (void)handle;
    (void)access;
    pthread_mutex_lock(&((pthread_mutex_t *)locks)[data]);
}

static inline void fw_share_unlock(CURL *handle, curl_lock_data data, void *locks) {
    (void)handle;
    pthread_mutex_unlock(&((pthread_mutex_t *)locks)[data]);
}

typedef struct {
    CURLSH *share;
    pthread_mutex_t *locks;
} fw_share;

/// A share of connections, DNS and TLS sessions that easy handles on several threads may use;
/// its `share` is NULL when libcurl refuses one. Free it with fw_share_free once no easy handle
/// uses it.
static inline fw_share fw_share_new(void) {
    fw_share result = {NULL, NULL};
    pthread_mutex_t *locks = malloc(sizeof(pthread_mutex_t) * CURL_LOCK_DATA_LAST);
    if (locks == NULL) return result;
    for (int kind = 0; kind < CURL_LOCK_DATA_LAST; kind++) pthread_mutex_init(&locks[kind], NULL);
    CURLSH *share = curl_share_init();
    if (share == NULL || curl_share_setopt(share, CURLSHOPT_LOCKFUNC, fw_share_lock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, fw_share_unlock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_USERDATA, (void *)locks) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        if (share != NULL) curl_share_cleanup(share);
        free(locks);
        return result;
    }
    result.share = share;
    result.locks = locks;
    return result;
}

static inline void fw_share_free(fw_share share) {
    if (share.share != NULL) curl_share_cleanup(share.share);
    if (share.locks != NULL) {
        for (int kind = 0; kind < CURL_LOCK_DATA_LAST; kind++) pthread_mutex_destroy(&share.locks[kind]);
        free(share.locks);
    }
}

static inline CURLcode fw_easy_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

#endif
