// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

//! What a column's cells are: how JSON writes them, how views sort and align them.
enum class Cell : uint8_t {
    Text, //!< a string; null when empty
    TextOrEmpty, //!< a string, "" when empty
    Number, //!< a number, written as its text; null when empty; sorts numerically
    //! A whole number: a count, a step, a rank, an id (a correlation, an address); INTEGER in a
    //! database, otherwise as Number.
    Integer,
    Json, //!< JSON text captured from the file (input dims), written as is; null when empty
    Id, //!< a pid/tid as written: a number when it is an integer, else a string
    NumberId, //!< the same, sorting numerically (device, stream)
    NumberList, //!< ';'-separated numbers, written as a JSON array; sorts numerically
    //! A time as the file wrote it (µs), written as a number; number() is the model time (ns),
    //! so that a view can show it relative to the trace's start, as the timeline does.
    Timestamp,
    //! A number of bytes, written as a number; views and the report show it in binary units
    //! (bytesText()).
    Bytes,
};

//! One column: its export name (CSV header, JSON key), kind, and the header a person reads.
struct ColumnSpec {
    std::string_view name;
    Cell cell = Cell::Text;
    std::string_view title = {}; //!< empty: the export name
};

/*!
 * A table the exports and the UI share: fixed columns (ColumnSpec), rows addressed by index.
 * Each cell can append itself as CSV text or as a JSON value, and gives a sort key, so that a file
 * exported from the window matches the headless export column for column.
 */
class Table {
public:
    virtual ~Table() = default;
    virtual size_t rowCount() const = 0;
    virtual std::span<const ColumnSpec> columns() const = 0;

    size_t columnCount() const { return columns().size(); }
    std::string_view columnName(size_t column) const { return columns()[column].name; }
    //! The column named \a name, -1 if none.
    int columnIndex(std::string_view name) const;
    std::string_view columnTitle(size_t column) const;
    //! True when the column holds numbers (right-aligned in views).
    bool isNumeric(size_t column) const;
    //! True when the column sorts by number() (numeric columns, and lists of numbers).
    bool sortsByNumber(size_t column) const;

    //! The cell as CSV shows it, unquoted; empty for no value.
    virtual std::string text(size_t row, size_t column) const = 0;
    /*!
     * The cell's text without building a string, for columns backed by stored strings (names,
     * input dims); false when the column computes its text. Lets a million-row sort skip a
     * million allocations.
     */
    virtual bool textView(size_t /*row*/, size_t /*column*/, std::string_view & /*out*/) const
    {
        return false;
    }
    //! Numeric sort key of a column that sortsByNumber(); NaN when the cell is empty. By
    //! default the cell's text read as a number (tables compute it directly where it is hot).
    virtual double number(size_t row, size_t column) const;
    //! Appends the cell as a JSON value, as its column's Cell kind says.
    virtual void appendJson(std::string &out, size_t row, size_t column) const;
};

//! Appends \a field to a CSV line, quoted as RFC 4180 requires, always valid UTF-8.
void appendCsvField(std::string &out, std::string_view field);

/*!
 * Writes all rows of \a table to \a path as CSV, or as a JSON array of objects when the path
 * ends in ".json"; "-" writes CSV to standard output. Atomic: on failure, returns false with
 * \a error set and leaves any earlier file in place.
 */
bool exportTable(const Table &table, const std::string &path, std::string &error);
//! The same for the rows \a rows only, in that order (a view's filter and sort).
bool exportTableRows(const Table &table,
    std::span<const uint32_t> rows,
    const std::string &path,
    std::string &error);

//! Renders \a table as CSV text (all rows).
std::string tableToCsv(const Table &table);
//! Renders \a table as JSON text, as exportTable() writes it (all rows, newline at the end).
std::string tableToJson(const Table &table);

} // namespace ks
