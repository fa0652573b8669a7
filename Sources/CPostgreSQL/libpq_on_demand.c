// libpq's functions, each forwarding to libpq.so.5 loaded with dlopen on first use (see
// include/CPostgreSQL.h). They keep libpq's names, so the Swift store calls libpq as written in its
// documentation, and they are hidden: they never leave this binary, so libpq's own internal calls
// (and anything else loaded later) still bind to libpq itself.
// (The C library's headers come first, so that only libpq's declarations are made hidden.)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)
#include "CPostgreSQL.h"
#pragma GCC visibility pop

// Every libpq function the store uses: return type, name, parameters, arguments.
#define SHOP_LIBPQ_FUNCTIONS(X) \
    X(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
    X(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(PGpipelineStatus, PQpipelineStatus, (const PGconn *conn), (conn)) \
    X(int, PQpipelineSync, (PGconn *conn), (conn)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(int, PQsendQueryParams, \
      (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, \
       const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQsendQueryPrepared, \
      (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, \
       const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))

// The ones without a result, which C cannot forward with `return`.
#define SHOP_LIBPQ_PROCEDURES(X) \
    X(PQclear, (PGresult *res), (res)) \
    X(PQfinish, (PGconn *conn), (conn)) \
    X(PQfreeCancel, (PGcancel *cancel), (cancel))

// Written once, by `load` under `pthread_once`; read only after `shop_libpq_load` returned 0.
static struct {
#define SHOP_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define SHOP_PROCEDURE_POINTER(name, parameters, arguments) void(*name) parameters;
    SHOP_LIBPQ_FUNCTIONS(SHOP_POINTER)
    SHOP_LIBPQ_PROCEDURES(SHOP_PROCEDURE_POINTER)
#undef SHOP_POINTER
#undef SHOP_PROCEDURE_POINTER
} libpq;

static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
static char loadError[512];  // empty when libpq is loaded

static void load(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(loadError, sizeof loadError, "cannot load libpq (Debian: apt-get install libpq5): %s", dlerror());
        return;
    }
#define SHOP_RESOLVE(name)                                                                       \
    if (!(*(void **)&libpq.name = dlsym(handle, #name))) {                                       \
        snprintf(loadError, sizeof loadError, "libpq.so.5 has no %s (libpq 14 or later needed)", #name); \
        return;                                                                                  \
    }
#define SHOP_RESOLVE_FUNCTION(type, name, parameters, arguments) SHOP_RESOLVE(name)
#define SHOP_RESOLVE_PROCEDURE(name, parameters, arguments) SHOP_RESOLVE(name)
    SHOP_LIBPQ_FUNCTIONS(SHOP_RESOLVE_FUNCTION)
    SHOP_LIBPQ_PROCEDURES(SHOP_RESOLVE_PROCEDURE)
#undef SHOP_RESOLVE_FUNCTION
#undef SHOP_RESOLVE_PROCEDURE
#undef SHOP_RESOLVE
}

const char *shop_libpq_load(void) {
    pthread_once(&loadOnce, load);
    return loadError[0] == '\0' ? NULL : loadError;
}

#define SHOP_FORWARD(type, name, parameters, arguments) \
    type name parameters { return libpq.name arguments; }
#define SHOP_FORWARD_PROCEDURE(name, parameters, arguments) \
    void name parameters { libpq.name arguments; }
SHOP_LIBPQ_FUNCTIONS(SHOP_FORWARD)
SHOP_LIBPQ_PROCEDURES(SHOP_FORWARD_PROCEDURE)
