#ifndef SHOP_CPOSTGRESQL_H
#define SHOP_CPOSTGRESQL_H

// libpq's API as the PostgreSQL store uses it, loaded on first use instead of at start-up.
//
// The declarations below are libpq's own, written here instead of taken from <libpq-fe.h>, so that
// building needs no PostgreSQL headers; the definitions are in libpq_on_demand.c, which forwards
// each call to libpq.so.5 opened with dlopen. A server that never opens a `postgres://` store
// never loads libpq (nor OpenSSL, Kerberos and LDAP behind it), which is most of the start-up
// time and memory it would otherwise cost (bench/HISTORY.md, "Floors").
//
// Why this is safe: libpq's client ABI is stable within soname 5 (since PostgreSQL 8.0): its
// header promises that enum values are only ever appended, never removed or renumbered, and the
// types below are opaque pointers or plain ints. Checked against libpq-fe.h and postgres_ext.h of
// PostgreSQL 15.18 (Debian 12, libpq-dev 15.18-0+deb12u1); the newest parts are pipeline mode and
// its two result statuses (PostgreSQL 14), so libpq 14 or later is needed, as the loader says.
// Only what the store uses is declared: add a name here, from libpq-fe.h, when the store needs it.

typedef unsigned int Oid;

typedef struct pg_conn PGconn;      ///< a connection (opaque)
typedef struct pg_result PGresult;  ///< the result of one command (opaque)
typedef struct pg_cancel PGcancel;  ///< what PQcancel needs to cancel a running command (opaque)

typedef enum {
    CONNECTION_OK,
    CONNECTION_BAD,
    // Non-blocking connection states follow in libpq-fe.h; the store uses only the two above.
} ConnStatusType;

typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK,
    PGRES_TUPLES_OK,
    PGRES_COPY_OUT,
    PGRES_COPY_IN,
    PGRES_BAD_RESPONSE,
    PGRES_NONFATAL_ERROR,
    PGRES_FATAL_ERROR,
    PGRES_COPY_BOTH,
    PGRES_SINGLE_TUPLE,
    PGRES_PIPELINE_SYNC,
    PGRES_PIPELINE_ABORTED,
} ExecStatusType;

typedef enum {
    PQTRANS_IDLE,
    PQTRANS_ACTIVE,
    PQTRANS_INTRANS,
    PQTRANS_INERROR,
    PQTRANS_UNKNOWN,
} PGTransactionStatusType;

typedef enum {
    PQ_PIPELINE_OFF,
    PQ_PIPELINE_ON,
    PQ_PIPELINE_ABORTED,
} PGpipelineStatus;

/// PQresultErrorField codes (postgres_ext.h).
#define PG_DIAG_SQLSTATE 'C'
#define PG_DIAG_MESSAGE_DETAIL 'D'

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
void PQfinish(PGconn *conn);
ConnStatusType PQstatus(const PGconn *conn);
PGTransactionStatusType PQtransactionStatus(const PGconn *conn);
char *PQerrorMessage(const PGconn *conn);
int PQsocket(const PGconn *conn);
int PQconsumeInput(PGconn *conn);

PGresult *PQexec(PGconn *conn, const char *query);
PGresult *PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                      const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                      int resultFormat);
int PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                        const int *paramLengths, const int *paramFormats, int resultFormat);
PGresult *PQgetResult(PGconn *conn);

int PQenterPipelineMode(PGconn *conn);
int PQexitPipelineMode(PGconn *conn);
int PQpipelineSync(PGconn *conn);
PGpipelineStatus PQpipelineStatus(const PGconn *conn);

ExecStatusType PQresultStatus(const PGresult *res);
char *PQresultErrorMessage(const PGresult *res);
char *PQresultErrorField(const PGresult *res, int fieldcode);
int PQntuples(const PGresult *res);
char *PQgetvalue(const PGresult *res, int tup_num, int field_num);
int PQgetisnull(const PGresult *res, int tup_num, int field_num);
char *PQcmdTuples(PGresult *res);
void PQclear(PGresult *res);

int PQputCopyData(PGconn *conn, const char *buffer, int nbytes);
int PQputCopyEnd(PGconn *conn, const char *errormsg);

PGcancel *PQgetCancel(PGconn *conn);
void PQfreeCancel(PGcancel *cancel);
int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize);

/// Loads libpq.so.5 and resolves every function the store uses, once per process (thread-safe).
/// Returns NULL when libpq is ready; otherwise why not (a string that lives as long as the
/// process). Call it, and see it succeed, before any other libpq function: only
/// `PQconnectdbParams` creates the objects the others take, so checking before connecting is enough.
const char *shop_libpq_load(void);

#endif
