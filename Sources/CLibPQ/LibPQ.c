#include "CLibPQ.h"

#include <CDynamicLibrary.h>

static PGconn *(*libpq_PQconnectdb)(const char *);
static ConnStatusType (*libpq_PQstatus)(const PGconn *);
static char *(*libpq_PQerrorMessage)(const PGconn *);
static void (*libpq_PQfinish)(PGconn *);
static PGresult *(*libpq_PQexec)(PGconn *, const char *);
static PGresult *(*libpq_PQexecParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
static int (*libpq_PQputCopyData)(PGconn *, const char *, int);
static int (*libpq_PQputCopyEnd)(PGconn *, const char *);
static PGresult *(*libpq_PQgetResult)(PGconn *);
static void (*libpq_PQclear)(PGresult *);
static ExecStatusType (*libpq_PQresultStatus)(const PGresult *);
static char *(*libpq_PQresultErrorMessage)(const PGresult *);
static char *(*libpq_PQresultErrorField)(const PGresult *, int);
static int (*libpq_PQntuples)(const PGresult *);
static int (*libpq_PQnfields)(const PGresult *);
static char *(*libpq_PQfname)(const PGresult *, int);
static Oid (*libpq_PQftype)(const PGresult *, int);
static char *(*libpq_PQcmdTuples)(PGresult *);
static char *(*libpq_PQgetvalue)(const PGresult *, int, int);
static int (*libpq_PQgetisnull)(const PGresult *, int, int);
static int (*libpq_PQgetlength)(const PGresult *, int, int);

static const fw_symbol symbols[] = {
    {"PQconnectdb", (void **)&libpq_PQconnectdb},
    {"PQstatus", (void **)&libpq_PQstatus},
    {"PQerrorMessage", (void **)&libpq_PQerrorMessage},
    {"PQfinish", (void **)&libpq_PQfinish},
    {"PQexec", (void **)&libpq_PQexec},
    {"PQexecParams", (void **)&libpq_PQexecParams},
    {"PQputCopyData", (void **)&libpq_PQputCopyData},
    {"PQputCopyEnd", (void **)&libpq_PQputCopyEnd},
    {"PQgetResult", (void **)&libpq_PQgetResult},
    {"PQclear", (void **)&libpq_PQclear},
    {"PQresultStatus", (void **)&libpq_PQresultStatus},
    {"PQresultErrorMessage", (void **)&libpq_PQresultErrorMessage},
    {"PQresultErrorField", (void **)&libpq_PQresultErrorField},
    {"PQntuples", (void **)&libpq_PQntuples},
    {"PQnfields", (void **)&libpq_PQnfields},
    {"PQfname", (void **)&libpq_PQfname},
    {"PQftype", (void **)&libpq_PQftype},
    {"PQcmdTuples", (void **)&libpq_PQcmdTuples},
    {"PQgetvalue", (void **)&libpq_PQgetvalue},
    {"PQgetisnull", (void **)&libpq_PQgetisnull},
    {"PQgetlength", (void **)&libpq_PQgetlength},
};

static fw_library pq = {
    .file = "libpq.so.5",
    .package = "libpq5",
    .symbols = symbols,
    .symbolCount = sizeof symbols / sizeof symbols[0],
    .once = PTHREAD_ONCE_INIT,
};

int fw_pq_load(void) { return fw_library_load(&pq); }
const char *fw_pq_load_error(void) { return fw_library_error(&pq); }

PGconn *fw_PQconnectdb(const char *conninfo) { return libpq_PQconnectdb(conninfo); }
ConnStatusType fw_PQstatus(const PGconn *conn) { return libpq_PQstatus(conn); }
char *fw_PQerrorMessage(const PGconn *conn) { return libpq_PQerrorMessage(conn); }
void fw_PQfinish(PGconn *conn) { libpq_PQfinish(conn); }
PGresult *fw_PQexec(PGconn *conn, const char *query) { return libpq_PQexec(conn, query); }
PGresult *fw_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return libpq_PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat); }
int fw_PQputCopyData(PGconn *conn, const char *buffer, int nbytes) { return libpq_PQputCopyData(conn, buffer, nbytes); }
int fw_PQputCopyEnd(PGconn *conn, const char *errormsg) { return libpq_PQputCopyEnd(conn, errormsg); }
PGresult *fw_PQgetResult(PGconn *conn) { return libpq_PQgetResult(conn); }
void fw_PQclear(PGresult *res) { libpq_PQclear(res); }
ExecStatusType fw_PQresultStatus(const PGresult *res) { return libpq_PQresultStatus(res); }
char *fw_PQresultErrorMessage(const PGresult *res) { return libpq_PQresultErrorMessage(res); }
char *fw_PQresultErrorField(const PGresult *res, int fieldcode) { return libpq_PQresultErrorField(res, fieldcode); }
int fw_PQntuples(const PGresult *res) { return libpq_PQntuples(res); }
int fw_PQnfields(const PGresult *res) { return libpq_PQnfields(res); }
char *fw_PQfname(const PGresult *res, int field_num) { return libpq_PQfname(res, field_num); }
Oid fw_PQftype(const PGresult *res, int field_num) { return libpq_PQftype(res, field_num); }
char *fw_PQcmdTuples(PGresult *res) { return libpq_PQcmdTuples(res); }
char *fw_PQgetvalue(const PGresult *res, int tup_num, int field_num) { return libpq_PQgetvalue(res, tup_num, field_num); }
int fw_PQgetisnull(const PGresult *res, int tup_num, int field_num) { return libpq_PQgetisnull(res, tup_num, field_num); }
int fw_PQgetlength(const PGresult *res, int tup_num, int field_num) { return libpq_PQgetlength(res, tup_num, field_num); }
