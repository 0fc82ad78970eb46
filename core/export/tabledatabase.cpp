// SPDX-License-Identifier: MIT
#include "export/tabledatabase.h"

#include "export/atomicfile.h"
#include "export/celltable.h"
#include "export/columnunits.h"
#include "export/sqlitehandles.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>

namespace ks {

namespace {

//! The declared type of a column: one type per column, so that SQL arithmetic on it is
//! arithmetic on numbers (no integer division of two whole times).
std::string_view sqlType(Cell cell)
{
    switch (cell) {
    case Cell::Number:
    case Cell::Timestamp:
        return "REAL";
    case Cell::Integer:
    case Cell::Bytes:
        return "INTEGER";
    case Cell::Id:
    case Cell::NumberId:
        return ""; // as the file wrote it: an integer, else text
    default:
        return "TEXT";
    }
}

/*!
 * \a text as a whole decimal number without a leading zero or sign other than '-', when SQLite's
 * INTEGER holds it (all of int64: ns since the epoch have 19 digits).
 */
std::optional<int64_t> decimalInteger(std::string_view text)
{
    const std::string_view digits = text.substr(!text.empty() && text.front() == '-' ? 1 : 0);
    if (digits.empty() || (digits.size() > 1 && digits.front() == '0'))
        return std::nullopt;
    int64_t value = 0; // from_chars reads digits only, and says when they are past int64
    const auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (failed != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

//! \a text is a decimal number as the exports write them: digits, '-', '.', an exponent.
bool isDecimalNumber(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    });
}

int bindText(sqlite3_stmt *st, int at, const std::string &text)
{
    return sqlite3_bind_text(st, at, text.data(), int(text.size()), SQLITE_TRANSIENT);
}

//! Appends each of \a parts to \a out.
template<typename... Parts> void appendAll(std::string &out, const Parts &...parts)
{
    (out.append(parts), ...);
}

//! \a text × 1000 when that is a whole number that SQLite's `k / 1000.0` turns back into exactly
//! the double strtod reads from \a text (so the view gives the very REAL a bound double gave).
std::optional<int64_t> thousandths(std::string_view text)
{
    const bool negative = !text.empty() && text.front() == '-';
    std::string_view digits = text.substr(negative ? 1 : 0);
    const size_t point = digits.find('.');
    const size_t decimals = point == std::string_view::npos ? 0 : digits.size() - point - 1;
    if (digits.size() == (point == std::string_view::npos ? 0 : 1) || decimals > 3)
        return std::nullopt;
    int64_t k = 0;
    const auto shift = [&k](int digit) {
        return !__builtin_mul_overflow(k, 10, &k) && !__builtin_add_overflow(k, digit, &k);
    };
    for (size_t i = 0; i < digits.size(); ++i) {
        const bool digit = digits[i] >= '0' && digits[i] <= '9';
        if (i != point && !(digit && shift(digits[i] - '0')))
            return std::nullopt;
    }
    for (size_t d = decimals; d < 3; ++d) {
        if (!shift(0))
            return std::nullopt;
    }
    if (k == 0 && negative)
        return std::nullopt; // −0.0 is no integer
    k = negative ? -k : k;
    const std::string whole(text);
    if (double(k) / 1000.0 != std::strtod(whole.c_str(), nullptr))
        return std::nullopt; // past 2^53: the division would round twice
    return k;
}

//! The column of NAME_rows that holds a thousandths column's numbers.
std::string storedName(std::string_view column)
{
    return std::string(column) + "_x1000";
}

/*!
 * The definition in NAME_rows of a thousandths column: the stored numbers (no declared type, so
 * that SQLite keeps each as bound), then the REAL the view reads, generated when read.
 */
std::string thousandthsColumn(std::string_view column, int64_t base)
{
    // Short: every database of a run has its schema parsed when opened.
    const std::string stored = sqlIdentifier(storedName(column));
    std::string plusBase;
    if (base)
        appendAll(plusBase, "+", std::to_string(base));
    return stored + "," + sqlIdentifier(column) + " REAL AS(iif(typeof(" + stored + ")='integer',("
        + stored + plusBase + ")/1e3," + stored + "))";
}

//! The physical table behind the view \a name.
std::string rowsTable(std::string_view name)
{
    return std::string(name) + "_rows";
}

} // namespace

std::string sqlIdentifier(std::string_view name)
{
    std::string out = "\"";
    for (char c : name) {
        out += c;
        if (c == '"')
            out += '"';
    }
    return out + '"';
}

TableDatabase::TableDatabase()
{
    if (openSqlite(":memory:", &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) != SQLITE_OK) {
        m_error = "SQLite: cannot open a database in memory";
        return;
    }
    // The writer finds ids in memory; the index on the text, for readers' searches by name, is
    // made once in save().
    if (exec("CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        && sqlite3_prepare_v2(
               m_db, "INSERT INTO strings (id, text) VALUES (?, ?)", -1, &m_addString, nullptr)
            != SQLITE_OK)
        m_error = std::string("SQLite: ") + sqlite3_errmsg(m_db);
}

TableDatabase::~TableDatabase()
{
    sqlite3_finalize(m_addString);
    sqlite3_close(m_db);
}

int TableDatabase::bindString(sqlite3_stmt *st, int at, const std::string &text)
{
    const auto [it, added] = m_stringIds.try_emplace(text, int64_t(m_stringIds.size()));
    if (added) {
        sqlite3_bind_int64(m_addString, 1, it->second);
        bindText(m_addString, 2, text);
        const int rc = sqlite3_step(m_addString);
        sqlite3_reset(m_addString);
        if (rc != SQLITE_DONE) {
            m_stringIds.erase(it);
            return rc;
        }
    }
    return sqlite3_bind_int64(st, at, it->second);
}

int TableDatabase::bindCell(
    sqlite3_stmt *st, int at, Cell cell, ColumnStore store, const std::string &text)
{
    if (text.empty())
        return cell == Cell::TextOrEmpty ? bindString(st, at, text) : sqlite3_bind_null(st, at);
    int64_t stored = 0;
    if (const auto k = store.thousandths ? thousandths(text) : std::nullopt;
        k && !__builtin_sub_overflow(*k, store.base, &stored))
        return sqlite3_bind_int64(st, at, stored);
    const std::string_view type = sqlType(cell);
    if (type == "TEXT")
        return bindString(st, at, text);
    // In a thousandths column only thousandths are integers: the view tells them apart so.
    if (const auto integer = store.thousandths ? std::nullopt : decimalInteger(text))
        return sqlite3_bind_int64(st, at, *integer);
    if (type == "REAL" && isDecimalNumber(text)) {
        char *end = nullptr;
        const double d = std::strtod(text.c_str(), &end);
        if (*end == '\0')
            return sqlite3_bind_double(st, at, d);
    }
    return bindText(st, at, text); // an id that is no integer, or a number as no export writes
}

/*!
 * How \a table's REAL column \a c is stored: as thousandths when it holds a fraction, less the
 * first one when that is large (a timestamp: its distance from the first takes a few bytes).
 */
TableDatabase::ColumnStore TableDatabase::storeOf(const Table &table, size_t c)
{
    // Below some rows the schema's longer text outweighs what the rows save (a few bytes each),
    // and every database of a run has its schema parsed when opened.
    constexpr size_t kFewRows = 64;
    if (sqlType(table.columns()[c].cell) != "REAL" || table.rowCount() < kFewRows)
        return {};
    for (size_t r = 0; r < table.rowCount(); ++r) {
        const std::string text = table.text(r, c);
        const auto k = text.find('.') == std::string::npos ? std::nullopt : thousandths(text);
        if (k)
            return {true, *k > INT32_MAX || *k < INT32_MIN ? *k : 0};
    }
    return {};
}

bool TableDatabase::exec(const std::string &sql)
{
    if (!m_error.empty())
        return false;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        m_error = std::string("SQLite: ") + sqlite3_errmsg(m_db);
    return m_error.empty();
}

bool TableDatabase::create(std::string_view name, const Table &table, bool ranked)
{
    if (m_stores.contains(std::string(name)))
        return true; // another rank's rows
    std::vector<ColumnStore> &stores = m_stores[std::string(name)];
    // The rows, texts as ids (declared INTEGER), and the view that joins the texts back.
    std::string rows = "CREATE TABLE IF NOT EXISTS " + sqlIdentifier(rowsTable(name)) + " (";
    std::string view = "CREATE VIEW IF NOT EXISTS " + sqlIdentifier(name) + " AS SELECT ";
    std::string joins;
    if (ranked) {
        rows += "\"rank\" INTEGER, ";
        view += "r.\"rank\", ";
        m_columnList.push_back({std::string(name), "rank", "INTEGER", ""});
    }
    for (size_t c = 0; c < table.columnCount(); ++c) {
        const std::string column = sqlIdentifier(table.columnName(c));
        const std::string_view type = sqlType(table.columns()[c].cell);
        const bool text = type == "TEXT";
        stores.push_back(storeOf(table, c));
        m_columnList.push_back(
            {std::string(name), std::string(table.columnName(c)), std::string(type),
                std::string(columnUnit(table.columnName(c), table.columns()[c].cell))});
        if (stores.back().thousandths)
            appendAll(rows, thousandthsColumn(table.columnName(c), stores.back().base));
        else
            appendAll(rows, column, type.empty() ? "" : " ", text ? "INTEGER" : type);
        if (text) {
            const std::string alias = 's' + std::to_string(c);
            appendAll(view, alias, ".text AS ", column);
            appendAll(joins, " LEFT JOIN strings AS ", alias, " ON ", alias, ".id = r.", column);
        } else {
            appendAll(view, "r.", column);
        }
        const bool last = c + 1 == table.columnCount();
        rows += last ? ")" : ", ";
        view += last ? "" : ", ";
    }
    appendAll(view, " FROM ", sqlIdentifier(rowsTable(name)), " AS r", joins, " ORDER BY r.rowid");
    return exec(rows) && exec(view);
}

void TableDatabase::add(std::string_view name, const Table &table, std::optional<int> rank)
{
    if (table.columnCount() == 0 || !create(name, table, rank.has_value()))
        return;
    const int offset = rank ? 1 : 0;
    // The columns named: a table added again with other columns fails instead of mixing them.
    std::string sql = "INSERT INTO " + sqlIdentifier(rowsTable(name)) + " (", values;
    if (rank)
        sql += "\"rank\", ";
    const std::vector<ColumnStore> &stores = m_stores[std::string(name)];
    if (stores.size() != table.columnCount()) {
        m_error = "SQLite: table " + std::string(name) + " added again with other columns";
        return;
    }
    for (size_t c = 0; c < table.columnCount(); ++c) {
        const std::string_view column = table.columnName(c);
        sql += sqlIdentifier(stores[c].thousandths ? storedName(column) : std::string(column));
        sql += c + 1 < table.columnCount() ? ", " : ")";
    }
    for (size_t c = 0; c < table.columnCount() + size_t(offset); ++c)
        values += c ? ",?" : "?";
    sql += " VALUES (" + values + ')';
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
        m_error = std::string("SQLite: ") + sqlite3_errmsg(m_db);
        return;
    }
    const SqliteStatement st(raw);
    if (!exec("BEGIN"))
        return;
    const auto columns = table.columns();
    for (size_t r = 0; r < table.rowCount(); ++r) {
        int rc = rank ? sqlite3_bind_int(raw, 1, *rank) : SQLITE_OK;
        for (size_t c = 0; c < columns.size() && rc == SQLITE_OK; ++c)
            rc = bindCell(raw, int(c) + 1 + offset, columns[c].cell, stores[c], table.text(r, c));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(raw);
        if (rc != SQLITE_DONE) {
            m_error = std::string("SQLite: ") + sqlite3_errmsg(m_db);
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
            return;
        }
        sqlite3_reset(raw);
    }
    exec("COMMIT");
}

void TableDatabase::index(std::string_view name, const std::vector<std::string_view> &columns)
{
    std::string indexName = "ix_" + std::string(name), list;
    for (std::string_view c : columns) {
        indexName += '_' + std::string(c);
        list += (list.empty() ? "" : ", ") + sqlIdentifier(c);
    }
    exec("CREATE INDEX " + sqlIdentifier(indexName) + " ON " + sqlIdentifier(rowsTable(name)) + " ("
        + list + ")");
}

void TableDatabase::addColumnList(std::string_view name)
{
    CellTable list;
    for (const char *column : {"table_name", "column_name", "type", "unit"}) {
        list.addColumn(column, Cell::TextOrEmpty, {});
        m_columnList.push_back({std::string(name), column, "TEXT", ""}); // itself too
    }
    for (const auto &row : m_columnList) {
        list.addRow();
        for (const std::string &cell : row)
            list.add(cell);
    }
    add(name, list);
}

bool TableDatabase::save(const std::string &path)
{
    // Last: one sort of every text, not an insert into the index per string.
    exec("CREATE INDEX IF NOT EXISTS ix_strings_text ON strings (text)");
    if (!m_error.empty()) {
        m_error = path + ": " + m_error; // what failed while it was built
        return false;
    }
    sqlite3_int64 size = 0;
    unsigned char *bytes = sqlite3_serialize(m_db, "main", &size, 0);
    if (!bytes) {
        m_error = path + ": SQLite could not serialize the database (out of memory?)";
        return false;
    }
    const std::string_view data(reinterpret_cast<const char *>(bytes), size_t(size));
    const bool written = writeFileAtomically(path, data, m_error);
    sqlite3_free(bytes);
    return written;
}

} // namespace ks
