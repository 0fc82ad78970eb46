// SPDX-License-Identifier: MIT
#include "run/runview.h"

#include "common/qstrings.h"
#include "common/selectioncontroller.h"
#include "export/runtables.h"
#include "run/runcharts.h"
#include "run/runnotice.h"
#include "run/runtimelines.h"
#include "table/tablemodel.h"
#include "table/tableview.h"
#include "trace/criticalpathpage.h"
#include "trace/findingspage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ks {

namespace {
//! How the run's collectives were matched, for the header.
QString matchedByText(const CollectiveMatch &match)
{
    switch (match.by) {
    case MatchedBy::CommsId:
        return RunView::tr(" by Comms Id");
    case MatchedBy::GroupSeq:
        return RunView::tr(" by process group and Seq");
    case MatchedBy::Order:
        break;
    }
    return match.byProcessGroup ? RunView::tr(" by order within process groups")
                                : RunView::tr(" by order");
}
} // namespace

RunView::RunView(std::shared_ptr<const Run> run, QWidget *parent)
    : QWidget(parent)
    , m_run(std::move(run))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    const QString from = m_run->fromDatabases()
        ? tr(" · from their databases, no timelines: double-click a rank to open its trace")
        : QString();
    auto *summary
        = new QLabel(tr("%7 on one clock · %1 collectives matched%2 · %3 of rank %4's %5 pairs "
                        "matched on another rank (%6 on every rank)%8")
                         .arg(m_run->collectives.collectives.size())
                         .arg(matchedByText(m_run->collectives))
                         .arg(m_run->pairs.matchedOnAnother())
                         .arg(m_run->ranks.empty() ? 0 : m_run->ranks.front().rank)
                         .arg(m_run->pairs.pairs.size())
                         .arg(m_run->pairs.matchedOnEvery(m_run->ranks.size()))
                         .arg(QString::fromStdString(m_run->rankCountText()), from),
            this);
    summary->setObjectName(QStringLiteral("runSummary"));
    summary->setWordWrap(true);
    layout->addWidget(summary);

    QStringList notes = runNotes(tr("Not loaded"), m_run->failures, m_run->warnings);
    QStringList health; // the run's own findings; each rank's are in its tab's Health panel
    for (const Finding &f : m_run->findings)
        health << toQString(info(f.check).name) + QStringLiteral(" × ") + QString::number(f.count)
                + QStringLiteral(": ") + toQString(f.example);
    if (!health.isEmpty())
        notes << tr("Health (as kinetoscope --check): %1").arg(health.join(QStringLiteral("; ")));
    std::string pathError;
    if (!m_run->criticalPath({}, &pathError))
        notes << tr("No critical path: %1").arg(QString::fromStdString(pathError));
    m_notice = makeRunNotice(notes, this);
    layout->addWidget(m_notice);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_pages = new QTabWidget(splitter);
    const auto ranks = std::make_shared<CellTable>(rankTable(m_run->summaries()));
    const auto collectives
        = std::make_shared<CellTable>(collectiveTable(m_run->rankNumbers(), m_run->collectives));
    const auto pairs = std::make_shared<CellTable>(
        rankPairTable(m_run->rankNumbers(), m_run->firstPairRows, m_run->pairs));
    addTable(Ranks, ranks, tr("Ranks"), -1);
    addTable(Collectives, collectives, tr("Collectives"), collectives->columnIndex("skew_us"));
    addTable(Pairs, pairs, tr("Pairs across ranks"), pairs->columnIndex("bwd_spread_us"));
    m_charts = new RunCharts(m_run, m_pages);
    addPage(Charts, m_charts, tr("Charts"));
    addPage(CriticalPath, makePathPage(), tr("Critical path"));
    if (!m_run->fromDatabases())
        addFindingsPage();
    splitter->addWidget(m_pages);
    if (!m_run->fromDatabases()) {
        m_timelines = new RunTimelines(m_run, splitter);
        splitter->addWidget(m_timelines);
        splitter->setStretchFactor(0, 2);
        splitter->setStretchFactor(1, 3);
    }
    layout->addWidget(splitter, 1);

    if (m_timelines) {
        connect(m_pages, &QTabWidget::currentChanged, this, [this] {
            const bool path = currentPage() == CriticalPath;
            m_timelines->showCriticalPath(path);
            if (path)
                scrollToPathRank();
        });
        connect(m_timelines, &RunTimelines::pairChanged, this, [this](int pair) {
            m_charts->setPair(pair);
            if (pair < 0)
                return;
            const int viewRow = m_models[Pairs]->viewRowOf(uint32_t(pair));
            if (viewRow >= 0 && m_tables[Pairs]->currentIndex().row() != viewRow)
                m_tables[Pairs]->selectRow(viewRow);
        });
    } else {
        connect(m_tables[Ranks], &QTableView::doubleClicked, this,
            [this](const QModelIndex &i) { openRankTrace(m_models[Ranks]->sourceRow(i.row())); });
    }
}

//! The Critical path page: the path across the ranks, or why there is none.
QWidget *RunView::makePathPage()
{
    std::string error;
    const auto path = m_run->criticalPath({}, &error); // found while the run opened
    if (!path) {
        auto *none
            = new QLabel(tr("No critical path: %1").arg(QString::fromStdString(error)), m_pages);
        none->setWordWrap(true);
        none->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        return none;
    }
    auto *page = new CriticalPathPage(path, m_pages);
    m_tables[CriticalPath] = page->segments();
    m_models[CriticalPath] = page->segmentModel();
    // A segment scrolls the timelines to its rank, or asks for its trace.
    connect(page, &CriticalPathPage::segmentChosen, this, [this, path](quint32 i) {
        if (m_timelines)
            m_timelines->scrollToRank(path->path().segments[i].rank);
    });
    if (m_run->fromDatabases())
        connect(
            page->segments(), &QTableView::doubleClicked, this, [this, path](const QModelIndex &i) {
                const uint32_t row = m_models[CriticalPath]->sourceRow(i.row());
                openRankTrace(path->path().segments[row].rank);
            });
    return page;
}

//! What to fix first in the path's step, first among the pages: an event of its evidence
//! selects it on its rank's timeline.
void RunView::addFindingsPage()
{
    m_findings = new FindingsPage(
        [run = m_run] {
            std::string error;
            const auto path = run->criticalPath({}, &error); // found while the run opened
            return FindingsOf {run, path.get(), error, &run->stepFindings()};
        },
        m_pages);
    m_pageWidgets[Findings] = m_findings;
    m_pages->insertTab(0, m_findings, tr("Findings"));
    m_pages->setCurrentIndex(0);
    connect(m_findings, &FindingsPage::eventChosen, this, [this](quint32 rank, quint32 slice) {
        m_timelines->scrollToRank(rank);
        m_timelines->selection(rank)->select(SliceId(slice));
    });
}

void RunView::addPage(Page page, QWidget *widget, const QString &title)
{
    m_pageWidgets[page] = widget;
    m_pages->addTab(widget, title);
}

void RunView::openRankTrace(size_t rankIndex)
{
    emit openTrace(QString::fromStdString(m_run->sources[rankIndex]->traceFile));
}

RunView::~RunView() = default;

//! The timelines show the rank with most time on the path.
void RunView::scrollToPathRank()
{
    const auto path = m_run->criticalPath();
    if (!path)
        return;
    const std::vector<RankOnPath> &ranks = path->path().ranks;
    const auto most = std::max_element(ranks.begin(), ranks.end(),
        [](const RankOnPath &a, const RankOnPath &b) { return a.time < b.time; });
    if (most != ranks.end() && most->time > 0)
        m_timelines->scrollToRank(uint32_t(most - ranks.begin()));
}

QTableView *RunView::addTable(
    Page page, std::shared_ptr<const Table> table, const QString &title, int sortColumn)
{
    QTableView *view = makeTableView(m_pages, QStringLiteral("runTable%1").arg(int(page)));
    auto *model = new TableModel(std::move(table), {}, view);
    view->setModel(model);
    if (sortColumn >= 0)
        view->sortByColumn(sortColumn, Qt::DescendingOrder);
    fitColumns(view);
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, page](const QModelIndex &current) {
            if (current.isValid())
                rowActivated(page, current.row());
        });
    m_tables[page] = view;
    m_models[page] = model;
    addPage(page, view, title);
    return view;
}

QTableView *RunView::table(Page page) const
{
    return m_tables[page];
}

TableModel *RunView::model(Page page) const
{
    return m_models[page];
}

QString RunView::notice() const
{
    return m_notice->isVisible() ? m_notice->text() : QString();
}

void RunView::activate(Page page, int viewRow)
{
    if (m_pageWidgets[page])
        m_pages->setCurrentWidget(m_pageWidgets[page]);
    if (m_models[page] && viewRow >= 0 && viewRow < m_models[page]->rowCount())
        m_tables[page]->selectRow(viewRow);
}

void RunView::rowActivated(Page page, int viewRow)
{
    const uint32_t row = m_models[page]->sourceRow(viewRow);
    switch (page) {
    case Ranks:
        if (m_timelines)
            m_timelines->scrollToRank(row);
        break;
    case Collectives:
        if (m_timelines)
            m_timelines->setCurrentCollective(int(row));
        break;
    case Pairs:
        if (!m_timelines)
            m_charts->setPair(int(row)); // as selecting it on the timelines does
        else if (int(row) != m_timelines->currentPair())
            m_timelines->selectPair(row);
        break;
    case CriticalPath: // its page says so itself (segmentChosen)
    case Charts:
    case Findings:
        break;
    }
}

RunView::Page RunView::currentPage() const
{
    const auto *shown = m_pages->currentWidget();
    for (int page = 0; page < kPages; ++page)
        if (shown && m_pageWidgets[page] == shown)
            return Page(page);
    return Ranks;
}

QString RunView::tableName(Page page)
{
    switch (page) {
    case Ranks:
        return QStringLiteral("ranks");
    case Collectives:
        return QStringLiteral("collectives");
    case Pairs:
        return QStringLiteral("rank-pairs");
    case CriticalPath:
        return QStringLiteral("critical-path");
    case Charts:
    case Findings:
        break;
    }
    return {};
}

} // namespace ks
