#ifndef SHOP_CCURLCLIENT_H
#define SHOP_CCURLCLIENT_H

// A small HTTP GET client over libcurl's multi interface, for the inventory service.
//
// libcurl (libcurl.so.4) is loaded with dlopen when the first client is made, so a server that
// never asks an inventory service never loads it (nor the TLS, HTTP/2, SSH, LDAP and Kerberos
// libraries behind it: most of start-up time and memory otherwise; bench/HISTORY.md, "Floors").
//
// Threads: each client runs one thread of its own that drives every transfer. `shop_http_get` and
// `shop_http_cancel` may be called from any thread; every `done` callback runs on the client's
// thread, exactly once per request that `shop_http_get` started, whatever happens (an answer, an
// error, a cancel, or the client's destruction).
#include <stddef.h>
#include <stdint.h>

typedef struct shop_http_client shop_http_client;

/// How a request ended.
typedef enum {
    SHOP_HTTP_ANSWERED = 0,       ///< a complete HTTP answer (any status) is in `status` and `body`
    SHOP_HTTP_REFUSED,            ///< the connection could not be made
    SHOP_HTTP_UNRESOLVED,         ///< the host name could not be resolved
    SHOP_HTTP_TIMED_OUT,          ///< the client's own time limits passed
    SHOP_HTTP_CONNECTION_LOST,    ///< the connection broke before the answer was complete
    SHOP_HTTP_TOO_LARGE,          ///< the body passed the client's limit; the transfer was stopped there
    SHOP_HTTP_CANCELLED,          ///< `shop_http_cancel`, or the client was destroyed
    SHOP_HTTP_FAILED,             ///< anything else; `message` says what
} shop_http_outcome;

/// A finished request, valid only during the `done` callback.
typedef struct {
    shop_http_outcome outcome;
    long status;                  ///< the HTTP status when `outcome` is SHOP_HTTP_ANSWERED
    const uint8_t *body;          ///< the body when SHOP_HTTP_ANSWERED (may be NULL when empty)
    size_t body_length;
    const char *message;          ///< libcurl's description of the error, "" if none
} shop_http_result;

typedef void (*shop_http_done)(void *context, const shop_http_result *result);

/// Makes a client: at most `max_connections` connections per host, answers of at most
/// `max_body_bytes`, redirects followed (http and https only). Returns NULL when libcurl cannot be
/// loaded or the client cannot be set up, and then sets `*error` to why (a string that lives as
/// long as the process).
shop_http_client *shop_http_client_create(long max_connections, size_t max_body_bytes, const char **error);

/// Cancels every request still running (each gets its `done`, SHOP_HTTP_CANCELLED), stops the
/// client's thread and frees the client. Call once, from any thread (from a `done` callback too:
/// the client then stops and frees itself once that callback returns).
void shop_http_client_destroy(shop_http_client *client);

/// Starts `GET url` with `Accept: application/json` and, when `extra_header` is not NULL, that
/// header line too (e.g. "X-Request-Timeout-Ms: 4950"; copied); `done(context, …)` runs once when
/// it ends. Returns the request's id, for `shop_http_cancel`; 0 when the request could not even be
/// made (out of memory), and then `done` never runs.
uint64_t shop_http_get(shop_http_client *client, const char *url, const char *extra_header, shop_http_done done,
                       void *context);

/// Stops request `id` and closes its connection; its `done` runs with SHOP_HTTP_CANCELLED, unless
/// it had already ended (then this does nothing).
void shop_http_cancel(shop_http_client *client, uint64_t id);

#endif
