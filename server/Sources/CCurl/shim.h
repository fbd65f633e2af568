// Typed entry points into libcurl for Swift.
//
// curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call.
// Each wrapper below fixes the type of the third argument, so Swift sees an ordinary function.
// The wrapper is chosen by the type the option takes, as listed on its curl documentation page.
#ifndef LATCHKEY_CCURL_SHIM_H
#define LATCHKEY_CCURL_SHIM_H

#include <curl/curl.h>

/// For options whose argument is a `long` (numbers, booleans, enumerations such as CURLUSESSL_ALL).
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// For options whose argument is a `char *`; libcurl copies the string, so it need not outlive the call.
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For options whose argument is a pointer libcurl keeps (CURLOPT_READDATA, CURLOPT_ERRORBUFFER).
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_READFUNCTION.
static inline CURLcode ccurl_setopt_read_function(CURL *handle, CURLoption option, curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// For options whose argument is a `struct curl_slist *` (CURLOPT_MAIL_RCPT); libcurl does not copy the list.
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLINFO_* values of type `long` (CURLINFO_RESPONSE_CODE, CURLINFO_NUM_CONNECTS).
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
