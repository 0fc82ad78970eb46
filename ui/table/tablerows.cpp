// SPDX-License-Identifier: MIT
#include "table/tablerows.h"

#include "common/qstrings.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace ks {

namespace {

void sortRows(const Table &table, std::vector<uint32_t> &rows, int sortColumn, bool descending)
{
    if (sortColumn < 0 || rows.empty())
        return;
    const auto column = size_t(sortColumn);
    // Keys once per row, then an index sort: cheap compares even for a million rows.
    if (table.sortsByNumber(column)) {
        std::vector<double> keys(table.rowCount(), std::nan(""));
        for (uint32_t r : rows)
            keys[r] = table.number(r, column);
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            const double x = keys[a], y = keys[b];
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y); // empty cells last either way
            return descending ? x > y : x < y;
        });
    } else if (std::string_view probe; table.textView(rows.front(), column, probe)) {
        // Stored strings repeat (op names, dims): rank the distinct ones by text once, keyed by
        // their storage address, then sort the rows by an integer rank.
        std::unordered_map<const char *, uint32_t> idOf;
        std::vector<std::string_view> distinct;
        std::vector<uint32_t> keys(table.rowCount());
        for (uint32_t r : rows) {
            std::string_view view;
            table.textView(r, column, view);
            auto [it, inserted] = idOf.try_emplace(view.data(), uint32_t(distinct.size()));
            if (inserted)
                distinct.push_back(view);
            keys[r] = it->second;
        }
        std::vector<uint32_t> byText(distinct.size());
        std::iota(byText.begin(), byText.end(), 0);
        std::sort(byText.begin(), byText.end(),
            [&](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
        std::vector<uint32_t> rank(distinct.size());
        for (uint32_t i = 0; i < byText.size();
             ++i) // equal texts at different addresses share a rank
            rank[byText[i]]
                = i > 0 && distinct[byText[i]] == distinct[byText[i - 1]] ? rank[byText[i - 1]] : i;
        for (uint32_t r : rows)
            keys[r] = rank[keys[r]];
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            return descending ? keys[b] < keys[a] : keys[a] < keys[b];
        });
    } else {
        std::vector<std::string> keys(table.rowCount());
        for (uint32_t r : rows)
            keys[r] = table.text(r, column);
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            return descending ? keys[b] < keys[a] : keys[a] < keys[b];
        });
    }
}

std::vector<uint32_t> filterRows(const Table &table,
    std::span<const size_t> filterColumns,
    const RowQuery &query,
    const std::atomic<bool> *stop)
{
    const QString &text = query.text;
    const bool regex = query.regex;
    const RowQuery::Predicate &keep = query.keep;
    std::vector<uint32_t> rows;
    const size_t n = table.rowCount();
    if (text.isEmpty()) {
        for (uint32_t r = 0; r < n; ++r) {
            if (!keep || keep(r))
                rows.push_back(r);
        }
        return rows;
    }
    const QRegularExpression re(
        regex ? text : QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        return rows;
    const std::string needle = text.toLower().toStdString();
    for (uint32_t r = 0; r < n; ++r) {
        // A newer query makes this one stale: stop early (its result is dropped anyway).
        if (stop && (r & 4095) == 0 && stop->load(std::memory_order_relaxed))
            return {};
        if (keep && !keep(r))
            continue;
        for (size_t c : filterColumns) {
            const std::string cell = table.text(r, c);
            bool hit;
            if (regex) {
                hit = re.match(toQString(cell)).hasMatch();
            } else {
                // Plain substring, ASCII case folding: no QString per cell.
                hit = std::search(cell.begin(), cell.end(), needle.begin(), needle.end(),
                          [](char a, char b) { return std::tolower(uint8_t(a)) == b; })
                    != cell.end();
            }
            if (hit) {
                rows.push_back(r);
                break;
            }
        }
    }
    return rows;
}

} // namespace

std::vector<uint32_t> arrangeRows(const Table &table,
    std::span<const size_t> filterColumns,
    const RowQuery &query,
    const std::atomic<bool> *stop)
{
    std::vector<uint32_t> rows = filterRows(table, filterColumns, query, stop);
    sortRows(table, rows, query.sortColumn, query.order == Qt::DescendingOrder);
    return rows;
}

} // namespace ks
