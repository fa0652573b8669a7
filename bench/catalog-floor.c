/*
 * catalog-floor: what answering `catalog.get` costs on this machine with no server around it.
 *
 *   gcc -O2 -o catalog-floor bench/catalog-floor.c -lsqlite3
 *   ./catalog-floor DB        DB: a store shop-rpc has already created and seeded
 *
 * The reference for shop-rpc's catalog.get figures, as ../shared/bench/limit-server.c is for
 * ping: one thread, NDJSON only, no JSON parser. It reads stdin in 1 MiB chunks, finds each
 * line's "id" and "sku" by scanning, and for each request does the store work shop-rpc does (the
 * same SQL on a read-only WAL connection, inside BEGIN DEFERRED … COMMIT, prepared once), then
 * writes the same reply shop-rpc writes, strings escaped. Replies are batched and written before
 * the next blocking read, so a lone request is answered at once. A request without a readable
 * sku, or for an unknown one, gets an error reply (never measured here; it keeps the count
 * honest). Not a server: no validation, no deadlines, no cancellation, no concurrency.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char obuf[256 * 1024];
static size_t olen;
static sqlite3 *db;
static sqlite3_stmt *begin_stmt, *select_stmt, *commit_stmt;

static void flush_out(void) {
    size_t off = 0;
    while (off < olen) {
        ssize_t w = write(1, obuf + off, olen - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            _exit(1);
        }
        off += (size_t)w;
    }
    olen = 0;
}

static void put(const char *bytes, size_t count) {
    memcpy(obuf + olen, bytes, count);
    olen += count;
}

#define PUT_LITERAL(s) put(s, sizeof s - 1)

/* A JSON string: quotes, backslashes and control characters escaped, as shop-rpc writes them. */
static void put_string(const unsigned char *s, size_t n) {
    obuf[olen++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            obuf[olen++] = '\\';
            obuf[olen++] = (char)c;
        } else if (c < 0x20) {
            olen += (size_t)sprintf(obuf + olen, "\\u%04x", c);
        } else {
            obuf[olen++] = (char)c;
        }
    }
    obuf[olen++] = '"';
}

/* The value after `"key":` in msg (a string's contents without quotes, or a bare token). */
static const char *find_value(const char *msg, size_t len, const char *key, size_t *out_len, int *quoted) {
    const char *p = memmem(msg, len, key, strlen(key));
    if (!p) return NULL;
    const char *e = msg + len;
    p += strlen(key);
    while (p < e && (*p == ' ' || *p == ':' || *p == '\t')) p++;
    const char *b = p;
    if (p < e && *p == '"') {
        b = ++p;
        while (p < e && *p != '"') p += (*p == '\\') ? 2 : 1;
        if (p > e) p = e;
        *quoted = 1;
    } else {
        while (p < e && *p != ',' && *p != '}' && *p != ' ') p++;
        *quoted = 0;
    }
    *out_len = (size_t)(p - b);
    return b;
}

static void step_unbound(sqlite3_stmt *statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) {
        fprintf(stderr, "catalog-floor: %s\n", sqlite3_errmsg(db));
        _exit(3);
    }
    sqlite3_reset(statement);
}

static void respond(const char *msg, size_t len) {
    size_t idl, skul;
    int id_quoted, sku_quoted;
    const char *id = find_value(msg, len, "\"id\"", &idl, &id_quoted);
    if (!id || idl == 0 || idl > 200) return; /* notification */
    const char *sku = find_value(msg, len, "\"sku\"", &skul, &sku_quoted);
    if (olen + 4096 > sizeof obuf) flush_out();
    PUT_LITERAL("{\"jsonrpc\":\"2.0\",\"id\":");
    if (id_quoted) put(id - 1, idl + 2); else put(id, idl);
    int found = 0;
    if (sku && sku_quoted) {
        step_unbound(begin_stmt);
        sqlite3_bind_text(select_stmt, 1, sku, (int)skul, SQLITE_STATIC);
        if (sqlite3_step(select_stmt) == SQLITE_ROW) {
            found = 1;
            static const char *const names[] = {"sku", "name", "description", "category"};
            PUT_LITERAL(",\"result\":{");
            for (int column = 0; column < 4; column++) {
                if (column) PUT_LITERAL(",");
                put_string((const unsigned char *)names[column], strlen(names[column]));
                PUT_LITERAL(":");
                put_string(sqlite3_column_text(select_stmt, column), (size_t)sqlite3_column_bytes(select_stmt, column));
            }
            olen += (size_t)sprintf(obuf + olen, ",\"priceCents\":%lld,\"currency\":",
                                    (long long)sqlite3_column_int64(select_stmt, 4));
            put_string(sqlite3_column_text(select_stmt, 5), (size_t)sqlite3_column_bytes(select_stmt, 5));
            PUT_LITERAL("}}\n");
        }
        sqlite3_reset(select_stmt);
        sqlite3_clear_bindings(select_stmt);
        step_unbound(commit_stmt);
    }
    if (!found) PUT_LITERAL(",\"error\":{\"code\":-32004,\"message\":\"not found\"}}\n");
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "catalog-floor: %s: %s\n", sql, sqlite3_errmsg(db));
        exit(2);
    }
    return statement;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: catalog-floor DB\n");
        return 2;
    }
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "catalog-floor: cannot open %s\n", argv[1]);
        return 2;
    }
    sqlite3_exec(db, "PRAGMA query_only = ON;", NULL, NULL, NULL);
    begin_stmt = prepare("BEGIN DEFERRED");
    select_stmt = prepare("SELECT p.sku, p.name, p.description, p.category, p.price_cents, p.currency "
                          "FROM products p WHERE p.sku = ?1");
    commit_stmt = prepare("COMMIT");
    size_t cap = 1 << 20, start = 0, end = 0;
    char *buf = malloc(cap);
    if (!buf) return 1;
    for (;;) {
        for (;;) {
            char *b = buf + start;
            size_t avail = end - start;
            char *nl = avail ? memchr(b, '\n', avail) : NULL;
            if (!nl) break;
            respond(b, (size_t)(nl - b));
            start += (size_t)(nl - b) + 1;
        }
        flush_out(); /* before we might block */
        if (start == end) start = end = 0;
        else if (start > 0 && cap - end < 65536) {
            memmove(buf, buf + start, end - start);
            end -= start;
            start = 0;
        }
        if (cap - end < 65536) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) return 1;
        }
        ssize_t n = read(0, buf + end, cap - end);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        end += (size_t)n;
    }
    flush_out();
    return 0;
}
