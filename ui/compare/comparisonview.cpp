// SPDX-License-Identifier: MIT
#include "compare/comparisonview.h"

#include "common/qstrings.h"
#include "common/selectioncontroller.h"
#include "common/timeformat.h"
#include "export/difftable.h"
#include "table/tablemodel.h"
#include "table/tableview.h"
#include "timeline/alignedtimelines.h"
#include "timeline/timelineview.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <limits>

namespace ks {

namespace {

QString fileName(const LoadedTrace &t)
{
    return QFileInfo(QString::fromStdString(t.model->path)).fileName();
}

//! Slower in red, faster in green, one side only in amber: the stronger, the larger the change.
QColor changeColor(double delta, double base)
{
    if (delta == 0)
        return {};
    const double rel = base > 0 ? std::min(1.0, std::fabs(delta) / base) : 1.0;
    const int alpha = 30 + int(120 * rel);
    return delta > 0 ? QColor(220, 40, 40, alpha) : QColor(30, 160, 60, alpha);
}

} // namespace

ComparisonView::ComparisonView(
    std::shared_ptr<ComparedTraces> compared, const DiffOptions &options, QWidget *parent)
    : QWidget(parent)
    , m_options(options)
    , m_compared(std::move(compared))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildToolbar());

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_table = makeTableView(splitter, QStringLiteral("diffTable"));

    m_timelines = new QWidget(splitter);
    auto *tl = new QVBoxLayout(m_timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(0);
    m_baseSelection = new SelectionController(m_compared->base, this);
    m_candidateSelection = new SelectionController(m_compared->candidate, this);
    m_baseTimeline = new TimelineView(m_baseSelection, m_timelines);
    m_candidateTimeline = new TimelineView(m_candidateSelection, m_timelines);
    auto caption = [&](const QString &text) {
        auto *label = new QLabel(text, m_timelines);
        label->setStyleSheet(
            QStringLiteral("font-weight: bold; padding: 2px 6px; background: palette(button);"));
        return label;
    };
    tl->addWidget(caption(tr("Base: %1").arg(fileName(*m_compared->base))));
    tl->addWidget(m_baseTimeline, 1);
    tl->addWidget(caption(tr("Candidate: %1").arg(fileName(*m_compared->candidate))));
    tl->addWidget(m_candidateTimeline, 1);
    splitter->addWidget(m_table);
    splitter->addWidget(m_timelines);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);
    m_aligned = std::make_unique<AlignedTimelines>(
        std::vector<TimelineView *> {m_baseTimeline, m_candidateTimeline});

    rebuildModel();
    showFirstStep();
}

ComparisonView::~ComparisonView() = default;

void ComparisonView::anchorOnSlot(size_t slot)
{
    const TraceDiff &diff = *m_compared->diff;
    m_aligned->setAnchors({double(diff.stepRange(false, slot).first - diff.base().model().minTime),
        double(diff.stepRange(true, slot).first - diff.candidate().model().minTime)});
}

void ComparisonView::showFirstStep()
{
    anchorOnSlot(0);
    const TraceDiff &diff = *m_compared->diff;
    auto length = [&](bool candidateSide) {
        const auto [from, to] = diff.stepRange(candidateSide, 0);
        return double(to - from);
    };
    const double span = std::max({length(false), length(true), 1000.0});
    m_aligned->show(-span * 0.05, span * 1.1);
}

QWidget *ComparisonView::buildToolbar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 2, 6, 2);
    m_groupingBox = new QComboBox(bar);
    m_groupingBox->setObjectName(QStringLiteral("diffGrouping"));
    m_groupingBox->addItems(
        {tr("Pairs"), tr("By op (name + input dims)"), tr("By module"), tr("By module type")});
    connect(m_groupingBox, &QComboBox::currentIndexChanged, this,
        [this](int i) { setGrouping(Grouping(i)); });
    row->addWidget(m_groupingBox);

    m_stepBox = new QComboBox(bar);
    m_stepBox->setObjectName(QStringLiteral("diffSteps"));
    m_stepBox->addItem(tr("Steps by position"));
    m_stepBox->addItem(tr("Mean over steps"));
    for (const ProfilerStep &s : m_compared->base->graph->steps())
        m_stepBox->addItem(
            tr("ProfilerStep#%1 of each").arg(s.number), QVariant::fromValue<qlonglong>(s.number));
    m_stepBox->setCurrentIndex(m_options.meanOverSteps ? 1 : 0);
    connect(m_stepBox, &QComboBox::activated, this, [this](int i) {
        m_options.meanOverSteps = i == 1;
        m_options.baseStep.reset();
        m_options.candidateStep.reset();
        if (i >= 2) {
            m_options.baseStep = m_stepBox->itemData(i).toLongLong();
            m_options.candidateStep = m_options.baseStep;
        }
        recompare();
    });
    row->addWidget(m_stepBox);

    m_filter = new QLineEdit(bar);
    m_filter->setPlaceholderText(tr("Filter op or module names"));
    m_filter->setClearButtonEnabled(true);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    connect(timer, &QTimer::timeout, this, [this] { m_model->setFilter(m_filter->text(), false); });
    row->addWidget(m_filter, 1);

    m_summary = new QLabel(bar);
    row->addWidget(m_summary);
    return bar;
}

void ComparisonView::recompare()
{
    m_summary->setText(tr("Comparing…"));
    m_recompare.run(
        [base = m_compared->base, candidate = m_compared->candidate, options = m_options](
            const std::atomic<bool> &stop) {
            Recompared r;
            DiffOptions stoppable = options;
            stoppable.cancel = &stop; // closing the tab or choosing again stops this one
            r.compared = ComparedTraces::make(base, candidate, stoppable, r.error);
            return r;
        },
        [this](Recompared r) {
            if (!r.compared) {
                m_summary->setText(QString::fromStdString(r.error));
                return;
            }
            // The old table model refers to the old diff: it goes first (rebuildModel).
            const auto previous = std::move(m_compared);
            m_compared = std::move(r.compared);
            rebuildModel();
            showFirstStep();
        });
}

void ComparisonView::setGrouping(Grouping grouping)
{
    m_grouping = grouping;
    if (m_groupingBox->currentIndex() != int(grouping))
        m_groupingBox->setCurrentIndex(int(grouping));
    rebuildModel();
}

void ComparisonView::rebuildModel()
{
    const TraceDiff &diff = *m_compared->diff;
    std::shared_ptr<Table> table;
    std::vector<size_t> filterColumns;
    if (m_grouping == Pairs) {
        auto pairs = std::make_shared<DiffTable>(diff);
        filterColumns = {DiffTable::FwdName, DiffTable::BwdNamesBase, DiffTable::BwdNamesCandidate,
            DiffTable::ModuleBase, DiffTable::ModuleCandidate};
        table = pairs;
    } else {
        const DiffGrouping g = m_grouping == ByOp ? DiffGrouping::Op
            : m_grouping == ByModule              ? DiffGrouping::Module
                                                  : DiffGrouping::ModuleType;
        table = std::make_shared<DiffGroupTable>(diff, g);
        filterColumns = {0};
    }
    auto *model = new TableModel(table, filterColumns, this);
    // Colour each row by the change of its GPU time, forward + backward.
    std::weak_ptr<Table> weak = table;
    model->setRowRoles([weak, grouping = m_grouping](uint32_t row, int role) -> QVariant {
        auto t = weak.lock();
        if (!t || role != Qt::BackgroundRole)
            return {};
        if (grouping == Pairs) {
            const DiffEntry &e = static_cast<const DiffTable &>(*t).entry(row);
            if (e.status == DiffStatus::OnlyBase || e.status == DiffStatus::OnlyCandidate)
                return QColor(240, 180, 40, 90);
            const double delta = e.delta(DiffMetric::FwdGpu) + e.delta(DiffMetric::BwdGpu);
            const double base = e.base.values[size_t(DiffMetric::FwdGpu)]
                + e.base.values[size_t(DiffMetric::BwdGpu)];
            const QColor c = changeColor(delta, base);
            return c.isValid() ? QVariant(c) : QVariant();
        }
        const DiffGroup &g = static_cast<const DiffGroupTable &>(*t).group(row);
        const double delta = g.delta(DiffMetric::FwdGpu) + g.delta(DiffMetric::BwdGpu);
        const QColor c = changeColor(
            delta, g.base[size_t(DiffMetric::FwdGpu)] + g.base[size_t(DiffMetric::BwdGpu)]);
        return c.isValid() ? QVariant(c) : QVariant();
    });
    TableModel *old = m_model;
    m_model = model;
    m_table->setModel(model);
    delete old;
    // The table is already ordered by the largest change; show the changes first.
    QHeaderView *header = m_table->horizontalHeader();
    header->setSortIndicator(-1, Qt::AscendingOrder);
    std::vector<int> first;
    auto metric = [&](DiffMetric m) {
        return int(m_grouping == Pairs
                ? DiffTable::metricColumn(m)
                : static_cast<const DiffGroupTable &>(*table).metricColumn(m));
    };
    const int fwd = metric(DiffMetric::FwdGpu), bwd = metric(DiffMetric::BwdGpu);
    if (m_grouping == Pairs)
        first = {DiffTable::FwdName, DiffTable::Status};
    else
        first = {0};
    for (int c : {fwd + 2, fwd + 3, bwd + 2, bwd + 3, fwd, fwd + 1, bwd, bwd + 1})
        first.push_back(c);
    for (int visual = 0; visual < int(first.size()); ++visual)
        header->moveSection(header->visualIndex(first[size_t(visual)]), visual);
    fitColumns(m_table, 260);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                selectRow(current.row());
        });
    if (!m_filter->text().isEmpty())
        model->setFilter(m_filter->text(), false);

    m_summary->setText(toQString(comparisonHeadline(diff)));
}

void ComparisonView::selectRow(int viewRow)
{
    if (m_grouping != Pairs || viewRow < 0 || viewRow >= m_model->rowCount())
        return;
    const auto &table = static_cast<const DiffTable &>(m_model->table());
    const DiffEntry &e = table.entry(m_model->sourceRow(viewRow));
    if (m_table->currentIndex().row() != viewRow)
        m_table->selectRow(viewRow);
    // Each side: its forward op (or first node), and the span from it to its last backward node.
    struct Side {
        SliceId slice = kNoSlice;
        TimeNs from = 0, to = 0;
    };
    auto sideOf = [](const LoadedTrace &trace, const DiffSide &d) {
        Side side;
        if (!d.present())
            return side;
        const OpGraph &g = *trace.graph;
        const SliceTable &t = trace.model->slices;
        const PairRow &row = g.rows()[size_t(d.row)];
        side.slice = g.representativeSlice(row);
        side.from = t.start[side.slice];
        side.to = t.end(side.slice);
        for (uint32_t i : g.nodesOf(row)) {
            side.from = std::min(side.from, t.start[g.nodes()[i].node]);
            side.to = std::max(side.to, t.end(g.nodes()[i].outer));
        }
        return side;
    };
    const Side b = sideOf(*m_compared->base, e.base);
    const Side c = sideOf(*m_compared->candidate, e.candidate);
    // Both pairs on the shared axis, relative to the steps their slot compares.
    anchorOnSlot(e.slot);
    m_baseSelection->select(b.slice);
    m_candidateSelection->select(c.slice);
    double from = std::numeric_limits<double>::infinity(), to = -from;
    auto include = [&](const Side &side, const LoadedTrace &trace, size_t index) {
        if (side.slice == kNoSlice)
            return;
        const double origin = double(trace.model->minTime) + m_aligned->anchor(index);
        from = std::min(from, double(side.from) - origin);
        to = std::max(to, double(side.to) - origin);
    };
    include(b, *m_compared->base, 0);
    include(c, *m_compared->candidate, 1);
    if (from > to)
        return;
    const double span = std::max(to - from, 1000.0);
    m_aligned->show(from - span * 0.05, span * 1.1);
}

} // namespace ks
