// SPDX-License-Identifier: MIT
#include "trace/criticalpathpage.h"

#include "common/selectioncontroller.h"
#include "export/criticalpathtables.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ks {

namespace {

//! "ProfilerStep#1: 85.000 µs on the critical path — cpu_bound 8 %, …" (classes with time only).
QString summaryText(const CriticalPath &path)
{
    if (!path.problem.empty())
        return QObject::tr("No critical path: %1").arg(QString::fromStdString(path.problem));
    QString text = path.step == kNoValue ? QObject::tr("Whole trace")
                                         : QStringLiteral("ProfilerStep#%1").arg(path.step);
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

CriticalPathPage::CriticalPathPage(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_analysis(selection->trace().criticalPath())
    , m_summary(new QLabel(summaryText(m_analysis.path()), this))
    , m_segments(tableOf(this,
          QStringLiteral("criticalSegments"),
          std::make_shared<const CellTable>(criticalSegmentTable(m_analysis))))
    , m_task(this)
    , m_askTask(this)
{
    m_summary->setObjectName(QStringLiteral("criticalSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(m_summary);
    m_segments->hideColumn(0); // the rank: one trace, always the same
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(titled(tr("Segments in path order"), m_segments, splitter));
    splitter->addWidget(buildSide());
    splitter->setSizes({600, 400});
    layout->addWidget(splitter, 1);
    // A segment selects its event: the timeline frames it, the tables follow.
    connect(m_segments->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (!current.isValid())
                return;
            const uint32_t row = current.data(TableModel::SourceRowRole).toUInt();
            m_selection->select(m_analysis.path().segments[row].event);
        });
    if (m_analysis.path().problem.empty())
        m_task.run([trace = selection->tracePointer()](
                       const std::atomic<bool> &) { return trace->criticalPath().bestChanges(); },
            [this](std::vector<WhatIf> best) {
                m_best = std::move(best);
                showWhatIfs();
            });
}

CriticalPathPage::~CriticalPathPage() = default;

QWidget *CriticalPathPage::buildSide()
{
    auto *side = new QSplitter(Qt::Vertical, this);
    const CriticalPath &path = m_analysis.path();
    side->addWidget(titled(tr("By class (HTA's bound_by)"),
        tableOf(side, QStringLiteral("criticalBounds"),
            std::make_shared<const CellTable>(criticalBoundTable(path))),
        side));
    QTableView *pairs = tableOf(side, QStringLiteral("criticalPairs"),
        std::make_shared<const CellTable>(criticalPairTable(m_analysis)));
    pairs->hideColumn(0); // the rank
    side->addWidget(titled(tr("Pairs with most time on the path"), pairs, side));
    auto *whatIf = new QWidget(side);
    auto *layout = new QVBoxLayout(whatIf);
    layout->setContentsMargins(0, 0, 0, 0);
    m_whatIfEdit = new QLineEdit(whatIf);
    m_whatIfEdit->setObjectName(QStringLiteral("whatIfEdit"));
    m_whatIfEdit->setPlaceholderText(tr("What if… NAME:FACTOR (aten::linear:0.5), Enter"));
    layout->addWidget(new QLabel(tr("What-if: the ten best changes, and yours"), whatIf));
    layout->addWidget(m_whatIfEdit);
    m_whatIfs = tableOf(whatIf, QStringLiteral("whatIfTable"),
        std::make_shared<const CellTable>(whatIfTable({}, path.length)));
    layout->addWidget(m_whatIfs, 1);
    side->addWidget(whatIf);
    connect(m_whatIfEdit, &QLineEdit::returnPressed, this, [this] {
        if (const auto change = parseWhatIf(m_whatIfEdit->text().toStdString()))
            askWhatIf(*change);
        else
            m_summary->setText(summaryText(m_analysis.path())
                + tr("\nA what-if is NAME:FACTOR, FACTOR from 0 to 100 (aten::linear:0.5)."));
    });
    return side;
}

void CriticalPathPage::askWhatIf(const WhatIfChange &change)
{
    m_askTask.run(
        [trace = m_selection->tracePointer(), change](const std::atomic<bool> &) {
            return WhatIf {change.name, change.factor,
                trace->criticalPath().lengthIf(change.name, change.factor)};
        },
        [this](WhatIf asked) {
            m_asked.insert(m_asked.begin(), std::move(asked));
            showWhatIfs();
        });
}

void CriticalPathPage::showWhatIfs()
{
    std::vector<WhatIf> rows = m_asked;
    rows.insert(rows.end(), m_best.begin(), m_best.end());
    auto *old = m_whatIfs->model();
    m_whatIfs->setModel(new TableModel(
        std::make_shared<const CellTable>(whatIfTable(rows, m_analysis.path().length)), {},
        m_whatIfs));
    delete old;
    fitColumns(m_whatIfs);
}

} // namespace ks
