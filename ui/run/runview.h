// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;
class QTabWidget;

namespace ks {

class FindingsPage;
class RunCharts;
class RunTimelines;
class Table;
class TableModel;

/*!
 * A run's tab, whether its ranks were read from traces or from databases: the rank table (GPU
 * time breakdown, forward/backward GPU time, steps per rank; clicking a rank scrolls the
 * timelines to it), the collectives (by skew: clicking one frames it and emphasises its band),
 * the pairs across ranks (by backward spread: clicking one selects it on every rank), the charts
 * and the critical path across the ranks (CriticalPathPage), above the ranks' timelines on the
 * common clock. A run from databases has no timelines (they are in the traces): double-clicking
 * a rank, or a segment of the path, asks for the rank's trace (openTrace()). Failed ranks,
 * matching warnings and the run's health findings show in a line on top.
 */
class RunView : public QWidget {
    Q_OBJECT
public:
    //! The pages; Findings, where the ranks' traces are at hand, is the first tab.
    enum Page { Ranks, Collectives, Pairs, Charts, CriticalPath, Findings };
    static constexpr int kPages = 6;

    explicit RunView(std::shared_ptr<const Run> run, QWidget *parent = nullptr);
    ~RunView() override;

    const Run &run() const { return *m_run; }
    std::shared_ptr<const Run> runPointer() const { return m_run; }
    //! Null for a run from databases.
    RunTimelines *timelines() const { return m_timelines; }
    RunCharts *charts() const { return m_charts; }
    //! Null for a run from databases (the path's changes replay on the traces).
    FindingsPage *findings() const { return m_findings; }
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

signals:
    //! A rank of a run from databases was double-clicked: open the trace at \a path.
    void openTrace(const QString &path);

private:
    QWidget *makePathPage();
    void addFindingsPage();
    void addPage(Page page, QWidget *widget, const QString &title);
    void openRankTrace(size_t rankIndex);
    QTableView *addTable(
        Page page, std::shared_ptr<const Table> table, const QString &title, int sortColumn);
    void rowActivated(Page page, int viewRow);
    void scrollToPathRank();

    std::shared_ptr<const Run> m_run;
    QTabWidget *m_pages = nullptr;
    QTableView *m_tables[kPages] = {}; //!< by page; none for Charts and Findings
    TableModel *m_models[kPages] = {};
    QWidget *m_pageWidgets[kPages] = {}; //!< by page; null: not shown
    FindingsPage *m_findings = nullptr; //!< null for a run from databases
    RunCharts *m_charts = nullptr;
    RunTimelines *m_timelines = nullptr;
    QLabel *m_notice = nullptr;
};

} // namespace ks
