#ifndef SHOP_CURL_ABI_H
#define SHOP_CURL_ABI_H

// The part of libcurl's C interface that curl_client.c uses, declared here instead of taken from
// <curl/curl.h>, so that building needs no libcurl headers (Debian's libcurl4-openssl-dev is not on
// a fresh machine); libcurl.so.4 itself is loaded with dlopen when the first client is made.
//
// Why this is safe: libcurl keeps its ABI stable within soname 4 (since 7.16.0, 2006): option,
// info and error numbers are never renumbered or reused, and the structs below are public and
// frozen. Every value here was checked against libcurl 7.88.1's headers (Debian 12,
// libcurl4-openssl-dev 7.88.1-10+deb12u15) and is a fixed part of curl.h/multi.h since the version
// that introduced it: the newest are CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR (7.85.0;
// an older libcurl answers them CURLE_UNKNOWN_OPTION and ignores them), curl_multi_wakeup (7.68.0)
// and curl_multi_poll (7.66.0). Only what is used is declared: add a name here, with its value from
// curl.h, when the client starts using it.
#include <stdint.h>

typedef void CURL;
typedef void CURLM;
typedef int64_t curl_off_t;  // `long` on x86_64 and aarch64 Linux: 64 bits either way

// MARK: - Error numbers (CURLcode, CURLMcode)
typedef int CURLcode;
enum {
    CURLE_OK = 0,
    CURLE_FAILED_INIT = 2,
    CURLE_COULDNT_RESOLVE_PROXY = 5,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_PARTIAL_FILE = 18,
    CURLE_OUT_OF_MEMORY = 27,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_GOT_NOTHING = 52,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_FILESIZE_EXCEEDED = 63,
};
typedef int CURLMcode;
enum { CURLM_OK = 0 };

// MARK: - Options and information (CURLoption, CURLINFO, CURLMoption)
// curl.h numbers each option as its argument type's base plus an index: long 0, object pointer
// 10000, function pointer 20000, curl_off_t 30000; CURLINFO_LONG is 0x200000.
typedef int CURLoption;
enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_MAXREDIRS = 68,
    CURLOPT_HTTPGET = 80,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_PRIVATE = 10103,
    CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_REDIR_PROTOCOLS_STR = 10319,
};
typedef int CURLINFO;
enum {
    CURLINFO_PRIVATE = 0x100000 + 21,        // a char * (CURLINFO_STRING)
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,   // a long (CURLINFO_LONG)
};
typedef int CURLMoption;
enum { CURLMOPT_MAX_HOST_CONNECTIONS = 7 };

enum { CURL_GLOBAL_DEFAULT = 3 };  // CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32

// MARK: - Structs

/// A list of strings (request headers), made by curl_slist_append.
struct curl_slist {
    char *data;
    struct curl_slist *next;
};

/// An extra descriptor for curl_multi_poll to wait on (unused: always passed as NULL, 0).
struct curl_waitfd {
    int fd;
    short events;
    short revents;
};

typedef int CURLMSG;
enum { CURLMSG_DONE = 1 };

/// What curl_multi_info_read reports: for CURLMSG_DONE, a transfer ended with `data.result`.
typedef struct CURLMsg {
    CURLMSG msg;
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

#endif
