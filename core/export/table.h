// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

/*!
 * A table the exports and the UI share: fixed columns, rows addressed by index. Each cell can
 * append itself as CSV text or as a JSON value, and gives a sort key, so that a file exported
 * from the window matches the headless export column for column.
 */
class Table {
public:
    virtual ~Table() = default;
    virtual size_t rowCount() const = 0;
    virtual size_t columnCount() const = 0;
    virtual std::string_view columnName(size_t column) const = 0;
    //! True when the column sorts numerically (and is right-aligned in views).
    virtual bool isNumeric(size_t column) const = 0;
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
    //! True when the column sorts by number() (numeric columns, and a few text ones).
    virtual bool sortsByNumber(size_t column) const { return isNumeric(column); }
    //! Numeric sort key of a column that sortsByNumber(); NaN when the cell is empty.
    virtual double number(size_t row, size_t column) const = 0;
    //! Appends the cell as a JSON value (null when empty).
    virtual void appendJson(std::string &out, size_t row, size_t column) const = 0;
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

} // namespace ks
