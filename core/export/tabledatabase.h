// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ks {

/*!
 * A SQLite database of export tables, built in memory and saved in one atomic write
 * (sqlite3_serialize, then writeFileAtomically): a half-written database is never left at the
 * target. Each Table can be read as an SQL view of the same name, column names and units: numbers
 * and times REAL, bytes, counts and ids INTEGER (a pid or tid: INTEGER when whole else TEXT),
 * texts TEXT, empty cells NULL; an index on `strings`' text lets a search by name use the
 * indexes on its id columns.
 * Its rows are stored in the table NAME_rows, each text as the id of a row of the one `strings`
 * table (a kernel's name of 200 bytes is written once, not on each of its thousands of rows),
 * which the view joins back. A REAL column with fractions, in a table of 64 rows or more, stores
 * each number that is a whole number of thousandths as that count (less the column's first when
 * it is large), which SQLite keeps in 1 to 6 bytes, not 8; a generated column of the same name
 * divides it back to the very double. A table added again (another rank's) gets more rows; its
 * columns must be the same.
 */
class TableDatabase {
public:
    TableDatabase();
    ~TableDatabase();
    TableDatabase(const TableDatabase &) = delete;
    TableDatabase &operator=(const TableDatabase &) = delete;

    /*!
     * Appends \a table's rows to the SQL table \a name, created on first use. With \a rank, a
     * leading `rank` column holds it on every row.
     */
    void add(std::string_view name, const Table &table, std::optional<int> rank = std::nullopt);
    //! An index on \a columns of table \a name's rows, named after both.
    void index(std::string_view name, const std::vector<std::string_view> &columns);
    /*!
     * The table \a name listing every column of the tables added so far: `table_name`,
     * `column_name`, `type` (the view's SQL type; empty: an integer, else text), `unit`.
     */
    void addColumnList(std::string_view name);
    //! Writes the database to \a path; false with error() (naming \a path) when anything failed.
    bool save(const std::string &path);
    //! The first failure, empty while all went well.
    const std::string &error() const { return m_error; }

private:
    //! How a column's numbers are stored: as they are, or as thousandths less \a base.
    struct ColumnStore {
        bool thousandths = false;
        int64_t base = 0;
    };
    static ColumnStore storeOf(const Table &table, size_t column);

    bool exec(const std::string &sql);
    bool create(std::string_view name, const Table &table, bool ranked);
    //! Binds \a text at \a at as the id of its row in `strings`, added on first use.
    int bindString(sqlite3_stmt *st, int at, const std::string &text);
    int bindCell(sqlite3_stmt *st, int at, Cell cell, ColumnStore store, const std::string &text);

    //! Each table's columns as created: (table, column, SQL type, unit).
    std::vector<std::array<std::string, 4>> m_columnList;
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_addString = nullptr;
    std::unordered_map<std::string, int64_t> m_stringIds;
    std::unordered_map<std::string, std::vector<ColumnStore>> m_stores; //!< per table, per column
    std::string m_error;
};

//! \a name quoted as an SQL identifier ("a""b").
std::string sqlIdentifier(std::string_view name);

} // namespace ks
