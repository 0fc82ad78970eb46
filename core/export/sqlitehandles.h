// SPDX-License-Identifier: MIT
#pragma once

#include <sqlite3.h>

#include <memory>

namespace ks {

//! Owners of SQLite's handles, for the database writer and its reader.
struct SqliteCloser {
    void operator()(sqlite3 *db) const { sqlite3_close(db); }
    void operator()(sqlite3_stmt *st) const { sqlite3_finalize(st); }
};
using SqliteDb = std::unique_ptr<sqlite3, SqliteCloser>;
using SqliteStatement = std::unique_ptr<sqlite3_stmt, SqliteCloser>;

/*!
 * sqlite3_open_v2(), the way every database of this program is opened. The first call turns
 * SQLite's memory statistics off (which it allows only before its first use, hence here): they
 * take one process-wide mutex on every allocation, which made databases read on two threads
 * slower than on one (1 024 ranks' databases: 0.67 s on one thread, 1.1–1.3 s on two with the
 * statistics, 0.35–0.41 s without).
 */
inline int openSqlite(const char *path, sqlite3 **db, int flags)
{
    static const int statisticsOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)statisticsOff; // SQLITE_MISUSE when something else started SQLite first: slower only
    return sqlite3_open_v2(path, db, flags, nullptr);
}

} // namespace ks
