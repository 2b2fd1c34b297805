// libcurl, loaded when first needed (see CDynamicLibrary.h): its types and constants from
// <curl/curl.h>, and each function Feedwork calls as `fw_` + its name. The variadic setters and
// getters, which Swift cannot call, have one fixed signature per kind of value.
//
// Call fw_curl_load() and check it before any other function here.
#ifndef FEEDWORK_CCURL_H
#define FEEDWORK_CCURL_H

#include <curl/curl.h>
#include <pthread.h>

/// Loads libcurl once; 1 when it is ready, 0 when it cannot be had (see fw_curl_load_error).
int fw_curl_load(void);

/// Why fw_curl_load failed, naming the file or the missing function.
const char *fw_curl_load_error(void);

/// Starts loading libcurl on a thread of its own, for a command that will fetch.
void fw_curl_preload(void);

CURLcode fw_curl_global_init(long flags);
CURL *fw_curl_easy_init(void);
void fw_curl_easy_cleanup(CURL *handle);
void fw_curl_easy_reset(CURL *handle);
CURLcode fw_curl_easy_perform(CURL *handle);
const char *fw_curl_easy_strerror(CURLcode code);
struct curl_slist *fw_curl_slist_append(struct curl_slist *list, const char *text);
void fw_curl_slist_free_all(struct curl_slist *list);

CURLcode fw_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode fw_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode fw_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode fw_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode fw_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

typedef size_t (*fw_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode fw_easy_setopt_write_function(CURL *handle, fw_data_callback callback);
CURLcode fw_easy_setopt_header_function(CURL *handle, fw_data_callback callback);

typedef int (*fw_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
    curl_off_t ulnow);
CURLcode fw_easy_setopt_xferinfo_function(CURL *handle, fw_xferinfo_callback callback);

CURLcode fw_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode fw_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode fw_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

/// A share of connections, DNS and TLS sessions that easy handles on several threads may use,
/// with a mutex per kind of data for libcurl's lock callbacks; `share` is NULL when libcurl
/// refuses one.
typedef struct {
    CURLSH *share;
    pthread_mutex_t *locks;
} fw_share;

/// A new share; free it with fw_share_free once no easy handle uses it.
fw_share fw_share_new(void);
void fw_share_free(fw_share share);
CURLcode fw_easy_setopt_share(CURL *handle, CURLSH *share);

#endif
