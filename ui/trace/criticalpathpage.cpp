// SPDX-License-Identifier: MIT
#include "trace/criticalpathpage.h"

#include "export/criticalpathtables.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ks {

namespace {

//! "ProfilerStep#1 (step model, window 200.000 µs): 200.000 µs on the critical path — idle 55 %,
//! cpu_bound 4 %, …" (classes with time only).
QString summaryText(const CriticalPath &path)
{
    if (!path.problem.empty())
        return QObject::tr("No critical path: %1").arg(QString::fromStdString(path.problem));
    QString text = path.step == kNoValue ? QObject::tr("Whole trace")
                                         : QStringLiteral("ProfilerStep#%1").arg(path.step);
    text += path.model == PathModel::Hta
        ? QObject::tr(" (HTA's model, idle time not counted; window %1 µs)")
              .arg(double(path.windowEnd - path.windowStart) / 1000, 0, 'f', 3)
        : QObject::tr(" (step model: the window, every µs accounted for)");
    text += QObject::tr(": %1 µs on the critical path").arg(double(path.length) / 1000, 0, 'f', 3);
    QStringList parts;
    for (size_t b = 0; b < kPathBounds; ++b)
        if (path.byBound[b] > 0)
            parts << QStringLiteral("%1 %2 %")
                         .arg(QString::fromUtf8(pathBoundName(PathBound(b)).data()))
                         .arg(100.0 * double(path.byBound[b]) / double(path.length), 0, 'f', 1);
    return parts.isEmpty() ? text : text + QStringLiteral(" — ") + parts.join(QStringLiteral(", "));
}

QTableView *tableOf(QWidget *parent, const QString &name, std::shared_ptr<const Table> table)
{
    QTableView *view = makeTableView(parent, name);
    view->setModel(new TableModel(std::move(table), {}, view));
    fitColumns(view);
    return view;
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(title, box));
    layout->addWidget(content, 1);
    return box;
}

} // namespace

CriticalPathPage::CriticalPathPage(
    std::shared_ptr<const CriticalPathAnalysis> analysis, QWidget *parent)
    : QWidget(parent)
    , m_analysis(std::move(analysis))
    , m_summary(new QLabel(summaryText(m_analysis->path()), this))
    , m_caveat(new QLabel(this))
    , m_segments(tableOf(this,
          QStringLiteral("criticalSegments"),
          std::make_shared<const CellTable>(criticalSegmentTable(*m_analysis))))
    , m_task(this)
    , m_askTask(this)
{
    m_summary->setObjectName(QStringLiteral("criticalSummary"));
    m_summary->setWordWrap(true);
    m_caveat->setObjectName(QStringLiteral("criticalCaveat"));
    m_caveat->setWordWrap(true);
    m_caveat->setStyleSheet(QStringLiteral("color: #a05a00;"));
    QStringList notes;
    for (const std::string &note : m_analysis->path().notes)
        notes << tr("Unknown dependency: %1").arg(QString::fromStdString(note));
    m_caveat->setText(notes.join(QLatin1Char('\n')));
    m_caveat->setVisible(!notes.isEmpty());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_caveat);
    if (m_analysis->ranks().size() == 1)
        m_segments->hideColumn(0); // the rank: one trace, always the same
    // What each segment is and costs first, its names after: kernel names are long.
    QHeaderView *header = m_segments->horizontalHeader();
    header->moveSection(header->visualIndex(5), 2); // dur_us
    header->moveSection(header->visualIndex(6), 3); // bound_by
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(titled(tr("Segments in path order"), m_segments, splitter));
    splitter->addWidget(buildSide());
    splitter->setSizes({600, 400});
    layout->addWidget(splitter, 1);
    connect(m_segments->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                emit segmentChosen(current.data(TableModel::SourceRowRole).toUInt());
        });
    if (m_analysis->path().problem.empty() && m_analysis->tracesAtHand())
        m_task.run(
            [analysis = m_analysis](const std::atomic<bool> &) { return analysis->bestChanges(); },
            [this](std::vector<WhatIf> best) {
                m_best = std::move(best);
                showWhatIfs();
            });
}

CriticalPathPage::~CriticalPathPage() = default;

TableModel *CriticalPathPage::segmentModel() const
{
    return qobject_cast<TableModel *>(m_segments->model());
}

QWidget *CriticalPathPage::buildSide()
{
    auto *side = new QSplitter(Qt::Vertical, this);
    const CriticalPath &path = m_analysis->path();
    side->addWidget(titled(tr("By class (bound_by)"),
        tableOf(side, QStringLiteral("criticalBounds"),
            std::make_shared<const CellTable>(criticalBoundTable(path))),
        side));
    QTableView *pairs = tableOf(side, QStringLiteral("criticalPairs"),
        std::make_shared<const CellTable>(criticalPairTable(*m_analysis)));
    if (m_analysis->ranks().size() == 1)
        pairs->hideColumn(0); // the rank
    side->addWidget(titled(tr("Pairs with most time on the path"), pairs, side));
    if (m_analysis->ranks().size() > 1)
        side->addWidget(titled(tr("Ranks: time on the path, slack, late start"),
            tableOf(side, QStringLiteral("criticalRanks"),
                std::make_shared<const CellTable>(criticalRankTable(*m_analysis))),
            side));
    auto *whatIf = new QWidget(side);
    auto *layout = new QVBoxLayout(whatIf);
    layout->setContentsMargins(0, 0, 0, 0);
    m_whatIfEdit = new QLineEdit(whatIf);
    m_whatIfEdit->setObjectName(QStringLiteral("whatIfEdit"));
    m_whatIfEdit->setPlaceholderText(
        tr("What if… NAME:FACTOR (aten::linear:0.5), no wait: NAME, no time: NAME, Enter"));
    if (!m_analysis->tracesAtHand()) { // a run from databases: the ops' work is in the traces
        m_whatIfEdit->setEnabled(false);
        m_whatIfEdit->setPlaceholderText(
            tr("What-ifs need the ranks' traces: open the run from them"));
    }
    layout->addWidget(new QLabel(tr("What-if: the ten best changes, and yours"), whatIf));
    layout->addWidget(m_whatIfEdit);
    m_whatIfMessage = new QLabel(whatIf);
    m_whatIfMessage->setObjectName(QStringLiteral("whatIfMessage"));
    m_whatIfMessage->setWordWrap(true);
    m_whatIfMessage->hide();
    layout->addWidget(m_whatIfMessage);
    m_whatIfs = tableOf(whatIf, QStringLiteral("whatIfTable"),
        std::make_shared<const CellTable>(whatIfTable({}, path.length)));
    layout->addWidget(m_whatIfs, 1);
    side->addWidget(whatIf);
    connect(m_whatIfEdit, &QLineEdit::returnPressed, this, [this] {
        if (const auto change = parseWhatIf(m_whatIfEdit->text().toStdString())) {
            askWhatIf(*change);
            return;
        }
        m_whatIfMessage->setText(
            tr("A what-if is NAME:FACTOR, FACTOR from 0 to 100 (aten::linear:0.5), "
               "\"no wait: NAME\", \"no time: NAME\", \"no recompute\" or \"on time: rank R\"."));
        m_whatIfMessage->show();
    });
    return side;
}

void CriticalPathPage::askWhatIf(const WhatIfChange &change)
{
    m_askTask.run(
        [analysis = m_analysis, change](const std::atomic<bool> &) {
            Asked asked {{change, 0}, analysis->whatIfProblem(change)};
            if (asked.problem.empty())
                asked.whatIf.length = analysis->lengthOf(change);
            return asked;
        },
        [this](Asked asked) { showAsked(std::move(asked)); });
}

void CriticalPathPage::showAsked(Asked asked)
{
    if (!asked.problem.empty()) {
        QString text = QString::fromStdString(asked.problem);
        text[0] = text[0].toUpper();
        m_whatIfMessage->setText(text + QLatin1Char('.'));
        m_whatIfMessage->show();
        return;
    }
    m_whatIfMessage->hide();
    m_asked.insert(m_asked.begin(), std::move(asked.whatIf));
    showWhatIfs();
}

void CriticalPathPage::showWhatIfs()
{
    std::vector<WhatIf> rows = m_asked;
    rows.insert(rows.end(), m_best.begin(), m_best.end());
    auto *old = m_whatIfs->model();
    m_whatIfs->setModel(new TableModel(
        std::make_shared<const CellTable>(whatIfTable(rows, m_analysis->path().length)), {},
        m_whatIfs));
    delete old;
    fitColumns(m_whatIfs);
}

} // namespace ks
