// SPDX-License-Identifier: MIT
#include "run/databaserunview.h"

#include "base/usablecores.h"
#include "export/celltable.h"
#include "export/runtables.h"
#include "run/runnotice.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

DatabaseRunView::DatabaseRunView(std::shared_ptr<const DatabaseRun> run, QWidget *parent)
    : QWidget(parent)
    , m_run(std::move(run))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(summaryText(), this);
    m_summary->setObjectName(QStringLiteral("runSummary"));
    layout->addWidget(m_summary);

    m_notice = makeRunNotice(runNotes(tr("Not read"), m_run->failures, m_run->warnings), this);
    layout->addWidget(m_notice);

    m_pages = new QTabWidget(this);
    addTable(Ranks, std::make_shared<CellTable>(rankTable(m_run->summaries())), tr("Ranks"));
    const auto collectives
        = std::make_shared<CellTable>(collectiveTable(m_run->rankNumbers(), m_run->collectives));
    addTable(Collectives, collectives, tr("Collectives"));
    m_tables[Collectives]->sortByColumn(collectives->columnIndex("skew_us"), Qt::DescendingOrder);
    // Made on the loading thread (readRankPairs()); none when the pairs could not be read.
    const auto pairs = m_run->pairTable ? m_run->pairTable : std::make_shared<CellTable>();
    addTable(Pairs, pairs, tr("Pairs across ranks"));
    if (m_run->pairTable)
        m_tables[Pairs]->sortByColumn(pairs->columnIndex("bwd_spread_us"), Qt::DescendingOrder);
    addTable(CriticalPath, std::make_shared<CellTable>(), tr("Critical path"));
    layout->addWidget(m_pages, 1);
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int page) {
        if (page == CriticalPath && !m_pathAsked)
            findPath();
    });

    connect(m_tables[Ranks], &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        openRankTrace(m_models[Ranks]->sourceRow(index.row()));
    });
    connect(
        m_tables[CriticalPath], &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
            const auto &segments = m_search.found->analysis->path().segments;
            openRankTrace(segments[m_models[CriticalPath]->sourceRow(index.row())].rank);
        });
}

void DatabaseRunView::openRankTrace(size_t rankIndex)
{
    emit openTrace(QString::fromStdString(m_run->ranks[rankIndex].sourceFile));
}

DatabaseRunView::~DatabaseRunView() = default;

void DatabaseRunView::findPath()
{
    m_pathAsked = true;
    m_pages->setTabText(CriticalPath, tr("Critical path (working it out…)"));
    m_pathSearch.run(
        [run = m_run](const std::atomic<bool> &stop) {
            PathSearch search;
            const unsigned threads = usableCores();
            search.found = readRankPaths(*run, kNoValue, threads, search.error, &stop);
            return search;
        },
        [this](const PathSearch &search) { showPath(search); });
}

void DatabaseRunView::showPath(const PathSearch &search)
{
    m_search = search;
    m_pages->setTabText(CriticalPath, tr("Critical path"));
    QTableView *view = m_tables[CriticalPath];
    TableModel *old = m_models[CriticalPath];
    if (m_search.found) {
        m_models[CriticalPath] = new TableModel(m_search.found->table, {}, view);
        view->setModel(m_models[CriticalPath]);
        fitColumns(view);
        delete old;
    } else { // a database's graph could not be read: said where the other failures are
        const QString line = pathToolTip();
        m_notice->setText(
            m_notice->text().isEmpty() ? line : m_notice->text() + QLatin1Char('\n') + line);
        m_notice->show();
    }
    view->setToolTip(pathToolTip());
    m_summary->setText(summaryText());
}

void DatabaseRunView::addTable(Page page, std::shared_ptr<const Table> table, const QString &title)
{
    QTableView *view = makeTableView(m_pages, QStringLiteral("databaseRunTable%1").arg(int(page)));
    auto *model = new TableModel(std::move(table), {}, view);
    view->setModel(model);
    fitColumns(view);
    m_tables[page] = view;
    m_models[page] = model;
    m_pages->addTab(view, title);
}

QString DatabaseRunView::summaryText() const
{
    const bool hasPath = m_search.found && m_search.found->analysis->path().problem.empty();
    const QString path = hasPath
        ? tr(" · critical path %1 µs")
              .arg(double(m_search.found->analysis->path().length) / 1000, 0, 'f', 3)
        : QString();
    return tr(
        "%n rank(s) from their databases · %1 collectives matched · %2 of %3 pairs of rank %4 "
        "matched on another rank%5 · no timelines: double-click a rank to open its trace",
        nullptr, int(m_run->ranks.size()))
        .arg(m_run->collectives.collectives.size())
        .arg(m_run->pairs.matchedOnAnother())
        .arg(m_run->pairs.pairs.size())
        .arg(m_run->ranks.empty() ? 0 : m_run->ranks.front().rank)
        .arg(path);
}

QString DatabaseRunView::pathToolTip() const
{
    if (!m_search.found)
        return tr("No critical path: %1").arg(QString::fromStdString(m_search.error));
    const ks::CriticalPath &path = m_search.found->analysis->path();
    if (!path.problem.empty())
        return tr("No critical path: %1").arg(QString::fromStdString(path.problem));
    QString tip = tr("The first step's critical path across the ranks, from their databases' "
                     "graphs: %1 µs (docs/critical-path.md)")
                      .arg(double(path.length) / 1000, 0, 'f', 3);
    const auto off = std::find_if(path.ranks.begin(), path.ranks.end(),
        [](const RankOnPath &r) { return !r.problem.empty(); });
    if (off != path.ranks.end())
        tip += tr("\nRank %1 and %n other(s) not on it: %2", nullptr,
            int(std::count_if(
                off + 1, path.ranks.end(), [](const RankOnPath &r) { return !r.problem.empty(); })))
                   .arg(m_run->ranks[size_t(off - path.ranks.begin())].rank)
                   .arg(QString::fromStdString(off->problem));
    return tip;
}

QString DatabaseRunView::notice() const
{
    return m_notice->isVisible() ? m_notice->text() : QString();
}

} // namespace ks
