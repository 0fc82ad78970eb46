// SPDX-License-Identifier: MIT
#pragma once

#include "export/table.h"

#include <QString>
#include <Qt>

#include <atomic>
#include <functional>
#include <span>
#include <vector>

namespace ks {

//! What a table view shows: a filter and a sort order, as plain values (workers copy them).
struct RowQuery {
    //! Keeps a table row; it runs on worker threads, so it may only read frozen data.
    using Predicate = std::function<bool(uint32_t row)>;
    QString text; //!< rows whose filter columns contain it (case-insensitive); empty: all
    bool regex = false; //!< text is a regular expression
    Predicate keep; //!< and which it keeps (null: every row)
    int sortColumn = -1; //!< -1: table order
    Qt::SortOrder order = Qt::AscendingOrder;
};

/*!
 * The rows of \a table that \a query keeps, in its order: numeric columns by number (empty cells
 * last), stored strings by a rank of their distinct texts, others by text; stable. A pure
 * function of its arguments, so it runs on any thread; with \a stop set it returns early (an
 * empty, discarded result).
 */
std::vector<uint32_t> arrangeRows(const Table &table,
    std::span<const size_t> filterColumns,
    const RowQuery &query,
    const std::atomic<bool> *stop = nullptr);

} // namespace ks
