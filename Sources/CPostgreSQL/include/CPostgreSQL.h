#ifndef SHOP_CPOSTGRESQL_H
#define SHOP_CPOSTGRESQL_H

// libpq's API as the PostgreSQL store uses it, loaded on first use instead of at start-up.
//
// The declarations are libpq's own (libpq-dev's libpq-fe.h); the definitions are in
// libpq_on_demand.c, which forwards each call to libpq.so.5 opened with dlopen. A server that never
// opens a `postgres://` store never loads libpq (nor OpenSSL, Kerberos and LDAP behind it), which
// is most of the start-up time and memory it would otherwise cost (bench/README.md, "Floors").
#include <postgresql/libpq-fe.h>

/// Loads libpq.so.5 and resolves every function the store uses, once per process (thread-safe).
/// Returns NULL when libpq is ready; otherwise why not (a string that lives as long as the
/// process). Call it, and see it succeed, before any other libpq function: only
/// `PQconnectdbParams` creates the objects the others take, so checking before connecting is enough.
const char *shop_libpq_load(void);

#endif
