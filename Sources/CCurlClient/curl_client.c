// The inventory service's HTTP client (see include/CCurlClient.h): libcurl's multi interface
// driven by one thread per client, with libcurl itself loaded on first use.
//
// One request's way: `shop_http_get` (any thread) queues it under the client's lock and wakes the
// client's thread; that thread adds it to the multi handle, drives every transfer with
// `curl_multi_perform`/`curl_multi_poll`, and ends it exactly once — when libcurl reports it done,
// when a cancel for its id arrives, or when the client is destroyed — calling its `done` and
// freeing it. Only the client's thread touches a started request, so a late cancel (for an id
// that already ended) finds nothing and does nothing.
#include "CCurlClient.h"

#include "curl_abi.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - libcurl, loaded on first use

// Written once by `load_curl` under `pthread_once`; read only after it succeeded.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
static char loadError[512];  // empty when libcurl is loaded

static void load_curl(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(loadError, sizeof loadError, "cannot load libcurl (Debian: apt-get install libcurl4): %s", dlerror());
        return;
    }
#define SHOP_RESOLVE(member, symbol)                                                                  \
    if (!(*(void **)&curl.member = dlsym(handle, symbol))) {                                          \
        snprintf(loadError, sizeof loadError, "libcurl.so.4 has no %s (libcurl 7.68 or later needed)", symbol); \
        return;                                                                                       \
    }
    SHOP_RESOLVE(global_init, "curl_global_init")
    SHOP_RESOLVE(easy_init, "curl_easy_init")
    SHOP_RESOLVE(easy_setopt, "curl_easy_setopt")
    SHOP_RESOLVE(easy_getinfo, "curl_easy_getinfo")
    SHOP_RESOLVE(easy_cleanup, "curl_easy_cleanup")
    SHOP_RESOLVE(easy_strerror, "curl_easy_strerror")
    SHOP_RESOLVE(multi_init, "curl_multi_init")
    SHOP_RESOLVE(multi_setopt, "curl_multi_setopt")
    SHOP_RESOLVE(multi_add_handle, "curl_multi_add_handle")
    SHOP_RESOLVE(multi_remove_handle, "curl_multi_remove_handle")
    SHOP_RESOLVE(multi_perform, "curl_multi_perform")
    SHOP_RESOLVE(multi_poll, "curl_multi_poll")
    SHOP_RESOLVE(multi_wakeup, "curl_multi_wakeup")
    SHOP_RESOLVE(multi_info_read, "curl_multi_info_read")
    SHOP_RESOLVE(multi_cleanup, "curl_multi_cleanup")
    SHOP_RESOLVE(slist_append, "curl_slist_append")
    SHOP_RESOLVE(slist_free_all, "curl_slist_free_all")
#undef SHOP_RESOLVE
    // Once per process, before any other thread uses libcurl (pthread_once orders it).
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) snprintf(loadError, sizeof loadError, "curl_global_init failed (%d)", (int)code);
}

// MARK: - Requests

typedef struct request {
    uint64_t id;
    char *url;
    char *extra_header;           // NULL: only the client's shared headers
    struct curl_slist *headers;   // this request's own list, when it has an extra header
    shop_http_done done;
    void *context;
    CURL *easy;                   // set once the client's thread has added it
    uint8_t *body;
    size_t length, capacity, limit;
    int too_large;
    struct request *next;
} request;

struct shop_http_client {
    CURLM *multi;
    struct curl_slist *headers;   // Accept: application/json, shared by every request
    size_t max_body_bytes;
    pthread_t thread;
    pthread_mutex_t lock;         // guards the fields from here to `next_id`
    request *queued;              // made by shop_http_get, not yet added (newest first)
    uint64_t *cancels;            // ids to cancel
    size_t cancel_count, cancel_capacity;
    int stopping;
    int frees_itself;             // destroyed from its own thread: `run` frees it on the way out
    uint64_t next_id;             // under `lock` too
    request *running;             // the client's thread's own list
};

static size_t append_body(char *data, size_t size, size_t count, void *user) {
    request *r = user;
    size_t n = size * count;
    if (n > r->limit - r->length) {  // past the limit: stop the transfer here
        r->too_large = 1;
        return 0;
    }
    if (r->length + n > r->capacity) {
        size_t capacity = r->capacity ? r->capacity : 4096;
        while (capacity < r->length + n) capacity *= 2;
        if (capacity > r->limit) capacity = r->limit;
        uint8_t *grown = realloc(r->body, capacity);
        if (!grown) return 0;  // CURLE_WRITE_ERROR: reported as a failure
        r->body = grown;
        r->capacity = capacity;
    }
    memcpy(r->body + r->length, data, n);
    r->length += n;
    return n;
}

static void free_request(request *r) {
    if (r->headers) curl.slist_free_all(r->headers);
    free(r->extra_header);
    free(r->url);
    free(r->body);
    free(r);
}

/// Calls `done` with what `code` means and frees the request. Client's thread.
static void finish(request *r, CURLcode code, int cancelled) {
    shop_http_result result = {SHOP_HTTP_FAILED, 0, NULL, 0, ""};
    if (cancelled) {
        result.outcome = SHOP_HTTP_CANCELLED;
    } else if (r->too_large || code == CURLE_FILESIZE_EXCEEDED) {
        result.outcome = SHOP_HTTP_TOO_LARGE;
    } else {
        result.message = curl.easy_strerror(code);
        switch (code) {
        case CURLE_OK:
            result.outcome = SHOP_HTTP_ANSWERED;
            curl.easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &result.status);
            result.body = r->body;
            result.body_length = r->length;
            result.message = "";
            break;
        case CURLE_COULDNT_CONNECT: result.outcome = SHOP_HTTP_REFUSED; break;
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY: result.outcome = SHOP_HTTP_UNRESOLVED; break;
        case CURLE_OPERATION_TIMEDOUT: result.outcome = SHOP_HTTP_TIMED_OUT; break;
        case CURLE_PARTIAL_FILE:
        case CURLE_GOT_NOTHING:
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR: result.outcome = SHOP_HTTP_CONNECTION_LOST; break;
        default: break;
        }
    }
    r->done(r->context, &result);
    if (r->easy) curl.easy_cleanup(r->easy);
    free_request(r);
}

/// Sets a queued request up and adds it to the multi handle; a request that cannot be set up ends
/// at once. Client's thread.
static void start(shop_http_client *client, request *r) {
    r->easy = curl.easy_init();
    if (!r->easy) return finish(r, CURLE_OUT_OF_MEMORY, 0);
    CURL *e = r->easy;
    curl.easy_setopt(e, CURLOPT_URL, r->url);
    curl.easy_setopt(e, CURLOPT_HTTPGET, 1L);
    if (r->extra_header) {
        r->headers = curl.slist_append(NULL, "Accept: application/json");
        struct curl_slist *both = r->headers ? curl.slist_append(r->headers, r->extra_header) : NULL;
        if (!both) return finish(r, CURLE_OUT_OF_MEMORY, 0);
        r->headers = both;
    }
    curl.easy_setopt(e, CURLOPT_HTTPHEADER, r->headers ? r->headers : client->headers);
    curl.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(e, CURLOPT_MAXREDIRS, 16L);
    // Each call's deadline cancels its request; these only back it up.
    curl.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 60000L);
    curl.easy_setopt(e, CURLOPT_TIMEOUT_MS, 300000L);
    // A declared length over the limit is refused before the body arrives; the write callback
    // stops any other body at the limit.
    curl.easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)r->limit);
    curl.easy_setopt(e, CURLOPT_WRITEFUNCTION, append_body);
    curl.easy_setopt(e, CURLOPT_WRITEDATA, r);
    curl.easy_setopt(e, CURLOPT_PRIVATE, r);
    if (curl.multi_add_handle(client->multi, e) != CURLM_OK) return finish(r, CURLE_FAILED_INIT, 0);
    r->next = client->running;
    client->running = r;
}

/// Removes `r` from the running list and from the multi handle. Client's thread.
static void unlink_running(shop_http_client *client, request *r) {
    for (request **link = &client->running; *link; link = &(*link)->next) {
        if (*link == r) {
            *link = r->next;
            break;
        }
    }
    curl.multi_remove_handle(client->multi, r->easy);
}

// MARK: - The client's thread

static void free_client(shop_http_client *client) {
    pthread_mutex_destroy(&client->lock);
    curl.multi_cleanup(client->multi);
    curl.slist_free_all(client->headers);
    free(client->cancels);
    free(client);
}

static void *run(void *argument) {
    shop_http_client *client = argument;
    for (;;) {
        pthread_mutex_lock(&client->lock);
        request *queued = client->queued;
        client->queued = NULL;
        uint64_t *cancels = client->cancels;
        size_t cancel_count = client->cancel_count;
        client->cancels = NULL;
        client->cancel_count = client->cancel_capacity = 0;
        int stopping = client->stopping;
        int frees_itself = client->frees_itself;  // set with `stopping`, in one step
        pthread_mutex_unlock(&client->lock);

        // Oldest first, so requests start in the order they were made.
        request *ordered = NULL;
        while (queued) {
            request *next = queued->next;
            queued->next = ordered;
            ordered = queued;
            queued = next;
        }
        while (ordered) {
            request *next = ordered->next;
            if (stopping) finish(ordered, CURLE_OK, 1);
            else start(client, ordered);
            ordered = next;
        }
        for (size_t i = 0; i < cancel_count; i++) {
            for (request *r = client->running; r; r = r->next) {
                if (r->id == cancels[i]) {
                    unlink_running(client, r);
                    finish(r, CURLE_OK, 1);
                    break;
                }
            }
        }
        free(cancels);
        if (stopping) {
            while (client->running) {
                request *r = client->running;
                unlink_running(client, r);
                finish(r, CURLE_OK, 1);
            }
            if (frees_itself) {
                pthread_detach(pthread_self());
                free_client(client);
            }
            return NULL;
        }

        int still_running = 0;
        curl.multi_perform(client->multi, &still_running);
        CURLMsg *message;
        int left;
        while ((message = curl.multi_info_read(client->multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            request *r = NULL;
            curl.easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&r);
            CURLcode code = message->data.result;  // read before the handle is removed
            unlink_running(client, r);
            finish(r, code, 0);
        }
        // Sleeps until a socket is ready, a timeout of libcurl's passes, or a wakeup (new work).
        curl.multi_poll(client->multi, NULL, 0, 1000, NULL);
    }
}

// MARK: - Public functions

shop_http_client *shop_http_client_create(long max_connections, size_t max_body_bytes, const char **error) {
    pthread_once(&loadOnce, load_curl);
    if (loadError[0] != '\0') {
        *error = loadError;
        return NULL;
    }
    shop_http_client *client = calloc(1, sizeof *client);
    if (!client) goto out_of_memory;
    client->max_body_bytes = max_body_bytes;
    client->next_id = 1;
    client->multi = curl.multi_init();
    client->headers = curl.slist_append(NULL, "Accept: application/json");
    if (!client->multi || !client->headers) goto cleanup;
    curl.multi_setopt(client->multi, CURLMOPT_MAX_HOST_CONNECTIONS, max_connections > 0 ? max_connections : 1L);
    pthread_mutex_init(&client->lock, NULL);
    if (pthread_create(&client->thread, NULL, run, client) != 0) {
        pthread_mutex_destroy(&client->lock);
        goto cleanup;
    }
    return client;
cleanup:
    if (client->headers) curl.slist_free_all(client->headers);
    if (client->multi) curl.multi_cleanup(client->multi);
    free(client);
out_of_memory:
    *error = "cannot set up the HTTP client (out of memory or threads)";
    return NULL;
}

void shop_http_client_destroy(shop_http_client *client) {
    // From a `done` callback (its last owner let go there), the thread cannot wait for itself:
    // it stops after that callback returns, and frees the client on its way out.
    int own_thread = pthread_equal(pthread_self(), client->thread);
    pthread_mutex_lock(&client->lock);
    client->stopping = 1;
    client->frees_itself = own_thread;
    pthread_mutex_unlock(&client->lock);
    curl.multi_wakeup(client->multi);
    if (own_thread) return;
    pthread_join(client->thread, NULL);
    free_client(client);
}

uint64_t shop_http_get(shop_http_client *client, const char *url, const char *extra_header, shop_http_done done,
                       void *context) {
    request *r = calloc(1, sizeof *r);
    char *copy = strdup(url);
    char *header = extra_header ? strdup(extra_header) : NULL;
    if (!r || !copy || (extra_header && !header)) {
        free(r);
        free(copy);
        free(header);
        return 0;
    }
    r->extra_header = header;
    r->url = copy;
    r->done = done;
    r->context = context;
    r->limit = client->max_body_bytes;
    pthread_mutex_lock(&client->lock);
    r->id = client->next_id++;
    r->next = client->queued;
    client->queued = r;
    uint64_t id = r->id;
    pthread_mutex_unlock(&client->lock);
    curl.multi_wakeup(client->multi);
    return id;
}

void shop_http_cancel(shop_http_client *client, uint64_t id) {
    pthread_mutex_lock(&client->lock);
    if (client->cancel_count == client->cancel_capacity) {
        size_t capacity = client->cancel_capacity ? client->cancel_capacity * 2 : 8;
        uint64_t *grown = realloc(client->cancels, capacity * sizeof *grown);
        if (!grown) {  // out of memory: the request then ends at its own time limits
            pthread_mutex_unlock(&client->lock);
            return;
        }
        client->cancels = grown;
        client->cancel_capacity = capacity;
    }
    client->cancels[client->cancel_count++] = id;
    pthread_mutex_unlock(&client->lock);
    curl.multi_wakeup(client->multi);
}
