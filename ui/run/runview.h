// SPDX-License-Identifier: MIT
#pragma once

#include "session/loadedrun.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;
class QTabWidget;

namespace ks {

class RunCharts;
class RunTimelines;
class Table;
class TableModel;

/*!
 * A run's tab: the rank table (GPU time breakdown, forward/backward GPU time, steps per rank;
 * clicking a rank scrolls the timelines to it), the collectives (by skew: clicking one frames
 * it and emphasises its band), the pairs across ranks (by backward spread: clicking one selects
 * it on every rank), the charts and the critical path across the ranks (CriticalPathPage), above
 * the ranks' timelines on the common clock. Failed ranks and matching warnings show in a line on
 * top. Each table exports its rows as CSV or JSON and the view saves as a picture, from its own
 * buttons.
 */
class RunView : public QWidget {
    Q_OBJECT
public:
    enum Page { Ranks, Collectives, Pairs, Charts, CriticalPath };

    explicit RunView(std::shared_ptr<const LoadedRun> run, QWidget *parent = nullptr);
    ~RunView() override;

    const LoadedRun &run() const { return *m_run; }
    std::shared_ptr<const LoadedRun> runPointer() const { return m_run; }
    RunTimelines *timelines() const { return m_timelines; }
    RunCharts *charts() const { return m_charts; }
    QTabWidget *pages() const { return m_pages; }
    QTableView *table(Page page) const;
    TableModel *model(Page page) const;
    //! The notice line (failures and warnings), empty when there is nothing to say.
    QString notice() const;

    //! Shows \a page and clicks its view row \a viewRow (tests, screenshots).
    void activate(Page page, int viewRow);
    //! The page on show.
    Page currentPage() const;
    //! The name of \a page's table in exports ("ranks", "collectives", "rank-pairs",
    //! "critical-path").
    static QString tableName(Page page);

private:
    QTableView *addTable(
        Page page, std::shared_ptr<const Table> table, const QString &title, int sortColumn);
    void rowActivated(Page page, int viewRow);
    void scrollToPathRank();

    std::shared_ptr<const LoadedRun> m_run;
    QTabWidget *m_pages = nullptr;
    QTableView *m_tables[5] = {}; //!< by page; none for Charts
    TableModel *m_models[5] = {};
    RunCharts *m_charts = nullptr;
    RunTimelines *m_timelines = nullptr;
    QLabel *m_notice = nullptr;
};

} // namespace ks
