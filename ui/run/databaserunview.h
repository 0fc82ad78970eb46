// SPDX-License-Identifier: MIT
#pragma once

#include "common/backgroundtask.h"
#include "session/databaserun.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>

class QLabel;
class QTableView;
class QTabWidget;

namespace ks {

class TableModel;

/*!
 * A run opened from per-rank databases (`--export-db`, one rank each): the rank table, the
 * collectives, the pairs across ranks and the critical path across the ranks, as
 * `--export-ranks`, `--export-collectives`, `--export-rank-pairs` and `--export-critical-path`
 * over the databases give them, on pages of their own; databases that could not be read and
 * matching warnings in a line on top. The path reads every database again (seconds for a
 * thousand ranks): it is worked out in the background the first time its page is shown.
 * There are no timelines (they are in the traces): double-clicking a rank, or a segment of the
 * path, asks for the rank's trace, the file its database names (openTrace()).
 */
class DatabaseRunView : public QWidget {
    Q_OBJECT
public:
    enum Page { Ranks, Collectives, Pairs, CriticalPath };

    explicit DatabaseRunView(std::shared_ptr<const DatabaseRun> run, QWidget *parent = nullptr);
    ~DatabaseRunView() override;

    const DatabaseRun &run() const { return *m_run; }
    QTabWidget *pages() const { return m_pages; }
    QTableView *table(Page page) const { return m_tables[page]; }
    TableModel *model(Page page) const { return m_models[page]; }
    //! The notice line (failures and warnings), empty when there is nothing to say.
    QString notice() const;
    //! The critical path across the ranks, once found; null before, or when it could not be.
    const DatabaseRunPath *path() const { return m_search.found ? &*m_search.found : nullptr; }

signals:
    //! A rank was double-clicked: open the trace at \a path in a tab of its own.
    void openTrace(const QString &path);

private:
    void addTable(Page page, std::shared_ptr<const class Table> table, const QString &title);
    //! Asks for the trace of the rank at \a rankIndex (openTrace()).
    void openRankTrace(size_t rankIndex);
    //! The line on top: ranks, collectives, pairs matched, the path's length.
    QString summaryText() const;
    //! The Critical path page's tip: the path's length, or why there is none.
    QString pathToolTip() const;
    //! Starts working out the path, the first time its page is shown.
    void findPath();
    struct PathSearch {
        std::optional<DatabaseRunPath> found;
        std::string error;
    };
    void showPath(const PathSearch &search);

    std::shared_ptr<const DatabaseRun> m_run;
    PathSearch m_search; //!< the path, or why there is none, once found
    bool m_pathAsked = false;
    BackgroundTask<PathSearch> m_pathSearch {this};
    QLabel *m_summary = nullptr;
    QTabWidget *m_pages = nullptr;
    QTableView *m_tables[4] = {};
    TableModel *m_models[4] = {};
    QLabel *m_notice = nullptr;
};

} // namespace ks
