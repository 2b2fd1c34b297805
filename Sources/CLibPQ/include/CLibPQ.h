// libpq, loaded when first needed (see CDynamicLibrary.h): its types and constants from
// <libpq-fe.h>, and each function Feedwork calls as `fw_` + its name.
//
// Call fw_pq_load() and check it before any other function here.
#ifndef FEEDWORK_CLIBPQ_H
#define FEEDWORK_CLIBPQ_H

#include <postgresql/libpq-fe.h>

/// Loads libpq once; 1 when it is ready, 0 when it cannot be had (see fw_pq_load_error).
int fw_pq_load(void);

/// Why fw_pq_load failed, naming the file or the missing function.
const char *fw_pq_load_error(void);

PGconn *fw_PQconnectdb(const char *conninfo);
ConnStatusType fw_PQstatus(const PGconn *conn);
char *fw_PQerrorMessage(const PGconn *conn);
void fw_PQfinish(PGconn *conn);
PGresult *fw_PQexec(PGconn *conn, const char *query);
PGresult *fw_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
int fw_PQputCopyData(PGconn *conn, const char *buffer, int nbytes);
int fw_PQputCopyEnd(PGconn *conn, const char *errormsg);
PGresult *fw_PQgetResult(PGconn *conn);
void fw_PQclear(PGresult *res);
ExecStatusType fw_PQresultStatus(const PGresult *res);
char *fw_PQresultErrorMessage(const PGresult *res);
char *fw_PQresultErrorField(const PGresult *res, int fieldcode);
int fw_PQntuples(const PGresult *res);
int fw_PQnfields(const PGresult *res);
char *fw_PQfname(const PGresult *res, int field_num);
Oid fw_PQftype(const PGresult *res, int field_num);
char *fw_PQcmdTuples(PGresult *res);
char *fw_PQgetvalue(const PGresult *res, int tup_num, int field_num);
int fw_PQgetisnull(const PGresult *res, int tup_num, int field_num);
int fw_PQgetlength(const PGresult *res, int tup_num, int field_num);

#endif
