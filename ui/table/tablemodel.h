// SPDX-License-Identifier: MIT
#pragma once

#include "base/tracetypes.h"
#include "common/backgroundtask.h"
#include "export/table.h"
#include "table/tablerows.h"

#include <QAbstractTableModel>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ks {

/*!
 * A QAbstractTableModel over a core Table (pairs, pair groups, kernels). Sorting and filtering
 * happen here on an index vector rather than through QSortFilterProxyModel: sort keys are
 * computed once per column. Tables over kSyncRows rows are filtered and sorted on a worker
 * (BackgroundTask) so typing never blocks the window; a newer filter or sort supersedes the one
 * in flight, and a closing tab stops and waits for it.
 */
class TableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SourceRowRole = Qt::UserRole + 1; //!< the row's index in the Table
    static constexpr int SortRole = Qt::UserRole + 2;

    //! \a filterColumns: the columns a filter looks at (names, usually).
    TableModel(std::shared_ptr<const Table> table,
        std::vector<size_t> filterColumns,
        QObject *parent = nullptr);
    ~TableModel() override;

    const Table &table() const { return *m_table; }
    std::shared_ptr<const Table> tablePointer() const { return m_table; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

    using RowPredicate = RowQuery::Predicate;
    /*!
     * Keeps only rows whose filter columns contain \a text (case-insensitive), or match it as a
     * regular expression when \a regex is set, and that \a keep keeps. filterApplied() is
     * emitted when the rows changed.
     */
    void setFilter(const QString &text, bool regex, RowPredicate keep = {});
    //! True while a filter or sort runs on the worker.
    bool filterPending() const { return m_task.pending(); }
    //! Table rows in view order (current filter and sort), for exports.
    const std::vector<uint32_t> &visibleRows() const { return m_rows; }
    //! View row of table row \a sourceRow, or -1 when filtered out.
    int viewRowOf(uint32_t sourceRow) const;
    uint32_t sourceRow(int viewRow) const { return m_rows[size_t(viewRow)]; }

    static constexpr size_t kSyncRows = 20000;

    /*!
     * Extra roles per table row (colours for BackgroundRole / ForegroundRole, …): \a provider
     * gets the table row and the role and returns an invalid QVariant for the default.
     */
    void setRowRoles(std::function<QVariant(uint32_t row, int role)> provider)
    {
        m_rowRoles = std::move(provider);
    }
    /*!
     * Shows timestamp columns (Cell::Timestamp) as the time since \a origin (the trace's start,
     * model time), as the timeline does; the tooltip keeps the ts as written. Exports are not
     * affected: they write the table itself.
     */
    void setTimeOrigin(TimeNs origin) { m_timeOrigin = origin; }

signals:
    void filterApplied();

private:
    //! Arranges the rows for m_query: at once for small tables, else on the worker.
    void arrange();
    bool isRelativeTime(size_t column) const;
    bool isBytes(size_t column) const;
    void applyRows(std::vector<uint32_t> rows);

    std::shared_ptr<const Table> m_table;
    std::function<QVariant(uint32_t, int)> m_rowRoles;
    std::optional<TimeNs> m_timeOrigin;
    std::vector<size_t> m_filterColumns;
    RowQuery m_query;
    std::vector<uint32_t> m_rows;
    std::vector<int> m_viewRowOf;
    BackgroundTask<std::vector<uint32_t>> m_task {this};
};

} // namespace ks
