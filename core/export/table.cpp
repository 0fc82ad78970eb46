// SPDX-License-Identifier: MIT
#include "export/table.h"

#include "base/jsonwrite.h"
#include "base/numbertext.h"
#include "export/atomicfile.h"

#include <limits>

namespace ks {

int Table::columnIndex(std::string_view name) const
{
    for (size_t c = 0; c < columnCount(); ++c) {
        if (columnName(c) == name)
            return int(c);
    }
    return -1;
}

std::string_view Table::columnTitle(size_t column) const
{
    const ColumnSpec &c = columns()[column];
    return c.title.empty() ? c.name : c.title;
}

bool Table::isNumeric(size_t column) const
{
    const Cell cell = columns()[column].cell;
    return cell == Cell::Number || cell == Cell::Integer || cell == Cell::NumberId
        || cell == Cell::Timestamp || cell == Cell::Bytes;
}

bool Table::sortsByNumber(size_t column) const
{
    return isNumeric(column) || columns()[column].cell == Cell::NumberList;
}

double Table::number(size_t row, size_t column) const
{
    const std::string cell = text(row, column);
    double v;
    return !cell.empty() && parseDouble(cell, v) ? v : std::numeric_limits<double>::quiet_NaN();
}

void Table::appendJson(std::string &out, size_t row, size_t column) const
{
    const std::string cell = text(row, column);
    const Cell kind = columns()[column].cell;
    if (kind == Cell::NumberList) {
        out += '[';
        for (char c : cell)
            out += c == ';' ? ',' : c;
        out += ']';
        return;
    }
    if (cell.empty()) {
        out += kind == Cell::TextOrEmpty ? "\"\"" : "null";
        return;
    }
    switch (kind) {
    case Cell::Number:
    case Cell::Integer:
    case Cell::Bytes:
    case Cell::Timestamp:
    case Cell::Json:
        out += cell;
        return;
    case Cell::Id:
    case Cell::NumberId: {
        // A pid/tid written as an integer stays a number; "stream 7" or "Spans" stay strings.
        int64_t v;
        if (parseInteger(cell, v) && cell.find('.') == std::string::npos && cell.front() != ' ')
            out += std::to_string(v);
        else
            appendJsonString(out, cell);
        return;
    }
    default:
        appendJsonString(out, cell);
        return;
    }
}

void appendCsvField(std::string &out, std::string_view field)
{
    const bool quote = field.find_first_of(",\"\r\n") != std::string_view::npos;
    if (!quote) {
        appendValidUtf8(out, field);
        return;
    }
    out += '"';
    size_t start = 0;
    for (size_t i = 0; i <= field.size(); ++i) {
        if (i == field.size() || field[i] == '"') {
            appendValidUtf8(out, field.substr(start, i - start));
            if (i < field.size())
                out += "\"\"";
            start = i + 1;
        }
    }
    out += '"';
}

namespace {

//! \a order null: all rows in table order.
template<typename Sink>
void writeRows(const Table &table, const std::span<const uint32_t> *order, bool json, Sink &&sink)
{
    std::string line;
    const size_t columns = table.columnCount();
    const size_t rows = order ? order->size() : table.rowCount();
    if (json) {
        sink(std::string_view("["));
    } else {
        for (size_t c = 0; c < columns; ++c) {
            if (c)
                line += ',';
            appendCsvField(line, table.columnName(c));
        }
        line += '\n';
        sink(line);
    }
    for (size_t i = 0; i < rows; ++i) {
        const size_t r = order ? (*order)[i] : i;
        line.clear();
        if (json) {
            line += i ? ",\n{" : "\n{";
            for (size_t c = 0; c < columns; ++c) {
                if (c)
                    line += ", ";
                appendJsonString(line, table.columnName(c));
                line += ": ";
                table.appendJson(line, r, c);
            }
            line += '}';
        } else {
            for (size_t c = 0; c < columns; ++c) {
                if (c)
                    line += ',';
                appendCsvField(line, table.text(r, c));
            }
            line += '\n';
        }
        sink(line);
    }
    if (json)
        sink(std::string_view("\n]\n"));
}

bool writeTable(const Table &table,
    const std::span<const uint32_t> *order,
    const std::string &path,
    std::string &error)
{
    AtomicFile file(path);
    if (!file.open()) {
        error = file.error();
        return false;
    }
    const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    writeRows(table, order, json, [&](std::string_view s) { file.write(s); });
    if (!file.commit()) {
        error = file.error();
        return false;
    }
    return true;
}

} // namespace

bool exportTable(const Table &table, const std::string &path, std::string &error)
{
    return writeTable(table, nullptr, path, error);
}

bool exportTableRows(
    const Table &table, std::span<const uint32_t> rows, const std::string &path, std::string &error)
{
    return writeTable(table, &rows, path, error);
}

std::string tableToCsv(const Table &table)
{
    std::string out;
    writeRows(table, nullptr, false, [&](std::string_view s) { out.append(s); });
    return out;
}

std::string tableToJson(const Table &table)
{
    std::string out;
    writeRows(table, nullptr, true, [&](std::string_view s) { out.append(s); });
    return out;
}

} // namespace ks
