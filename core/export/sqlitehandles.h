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

} // namespace ks
