// SPDX-License-Identifier: MIT
#include "trace/modulesview.h"

#include "common/qstrings.h"
#include "common/timeformat.h"

#include "base/unitstext.h"
#include "trace/iciclechart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtNumeric>

#include <cmath>

namespace ks {

namespace {

enum Column {
    Name,
    Calls,
    FwdGpu,
    FwdGpuSelf,
    BwdGpu,
    BwdGpuSelf,
    Recompute,
    BwdOther,
    Cpu,
    FwdAlloc,
    Held,
    BwdAlloc,
    FwdTflops,
    BwdTflops,
    ColumnCount
};

//! Sorts numerically on the numeric columns (the number is kept in Qt::UserRole).
class ModuleItem : public QTreeWidgetItem {
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (c == Name)
            return text(c) < other.text(c);
        // Unknown values (held bytes without `Addr`, NaN) sort below every number.
        const double a = data(c, Qt::UserRole).toDouble();
        const double b = other.data(c, Qt::UserRole).toDouble();
        return std::isnan(a) ? !std::isnan(b) : !std::isnan(b) && a < b;
    }
};

QString us(TimeNs ns)
{
    return QString::fromStdString(microsText(ns));
}

} // namespace

ModulesView::ModulesView(const ModuleTree &tree,
    const std::vector<PairMemory> &pairMemory,
    const OpEfficiency &efficiency,
    QWidget *parent)
    : QWidget(parent)
    , m_modules(tree)
    , m_memory(tree, pairMemory)
    , m_flops(tree, efficiency)
    , m_step(ModuleTree::kWholeTrace)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    m_stepBox = new QComboBox(this);
    m_stepBox->setObjectName(QStringLiteral("moduleStep"));
    m_stepBox->addItem(tr("Whole trace"));
    for (const ProfilerStep &s : tree.steps())
        m_stepBox->addItem(tr("ProfilerStep#%1").arg(s.number));
    connect(m_stepBox, &QComboBox::currentIndexChanged, this, [this](int i) { setStep(i - 1); });
    row->addWidget(m_stepBox);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter modules"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &ModulesView::applyFilter);
    row->addWidget(m_filter, 1);
    m_source = new QLabel(toQString(ModuleTree::sourceDescription(tree.source())), this);
    m_source->setObjectName(QStringLiteral("moduleSource"));
    m_source->setStyleSheet(QStringLiteral("color: palette(mid);"));
    row->addWidget(m_source);
    layout->addLayout(row);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_tree = new QTreeWidget(splitter);
    m_tree->setObjectName(QStringLiteral("moduleTree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("module"), tr("calls"), tr("fwd GPU µs"), tr("fwd GPU self"),
        tr("bwd GPU µs"), tr("bwd GPU self"), tr("recompute µs"), tr("bwd other µs"), tr("CPU µs"),
        tr("fwd alloc"), tr("held for bwd"), tr("bwd alloc"), tr("fwd TFLOP/s"),
        tr("bwd TFLOP/s")});
    m_tree->headerItem()->setToolTip(FwdTflops,
        tr("FLOPs of the module's modelled ops (matmuls, convolutions, attention…) over its "
           "forward GPU time (docs/efficiency.md)"));
    m_tree->headerItem()->setToolTip(Recompute,
        tr("The module's forward work re-run during backward (activation checkpointing)"));
    m_tree->headerItem()->setToolTip(
        FwdAlloc, tr("Bytes allocated inside the module's forward ops (profile_memory=True)"));
    m_tree->headerItem()->setToolTip(Held,
        tr("Of those, the bytes still allocated when each op's backward starts: the activations "
           "the module keeps for its backward. Over the whole trace, the largest step's"));
    m_tree->headerItem()->setToolTip(
        BwdAlloc, tr("Bytes allocated inside the backward nodes of the module's ops"));
    // Without checkpointing, or without memory events, those columns say nothing.
    m_tree->setColumnHidden(Recompute, tree.node(0).times.recomputeTotal.count == 0);
    for (const int c : {FwdAlloc, Held, BwdAlloc})
        m_tree->setColumnHidden(c, !m_memory.recorded());
    for (const int c : {FwdTflops, BwdTflops})
        m_tree->setColumnHidden(c, !m_flops.modelled());
    m_tree->setSortingEnabled(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSortIndicator(-1, Qt::AscendingOrder);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        const auto id = ModuleId(item->data(0, Qt::UserRole).toUInt());
        if (id != m_selected) {
            m_selected = id;
            m_icicle->setSelected(id);
            emit moduleSelected(id);
        }
    });

    auto *scroll = new QScrollArea(splitter);
    m_icicle = new IcicleChart(tree, scroll);
    m_icicle->setObjectName(QStringLiteral("icicle"));
    scroll->setWidget(m_icicle);
    scroll->setWidgetResizable(true);
    connect(m_icicle, &IcicleChart::moduleClicked, this, &ModulesView::selectModule);
    splitter->addWidget(m_tree);
    splitter->addWidget(scroll);
    layout->addWidget(splitter, 1);
    fill();
}

void ModulesView::fill()
{
    m_tree->clear();
    // A footprint: over the whole trace, the largest step's (ModuleMemory), not their sum.
    const bool largestStep = m_step == ModuleTree::kWholeTrace && !m_modules.steps().empty();
    m_tree->headerItem()->setText(
        Held, largestStep ? tr("held for bwd (largest step)") : tr("held for bwd"));
    const auto &nodes = m_modules.nodes();
    m_items.assign(nodes.size(), nullptr);
    for (ModuleId id = 0; id < nodes.size(); ++id) {
        const ModuleNode &n = nodes[id];
        const ModuleTimes &t = m_modules.times(id, m_step);
        auto *item
            = n.parent == kNoModule ? new ModuleItem(m_tree) : new ModuleItem(m_items[n.parent]);
        m_items[id] = item;
        item->setText(Name, QString::fromStdString(n.name));
        item->setToolTip(Name, QString::fromStdString(n.path));
        item->setData(0, Qt::UserRole, uint(id));
        const std::pair<int, double> numbers[] = {{Calls, double(t.calls)},
            {FwdGpu, double(t.forwardTotal.time)}, {FwdGpuSelf, double(t.forwardSelf.time)},
            {BwdGpu, double(t.backwardTotal.time)}, {BwdGpuSelf, double(t.backwardSelf.time)},
            {Recompute, double(t.recomputeTotal.time)},
            {BwdOther, double(t.backwardOtherTotal.time)}, {Cpu, double(t.cpuTotal)}};
        for (const auto &[c, v] : numbers) {
            item->setData(c, Qt::UserRole, v);
            item->setText(c, c == Calls ? QString::number(t.calls) : us(TimeNs(v)));
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
        for (const int c : {FwdTflops, BwdTflops}) {
            const std::optional<double> rate = m_flops.tflopsPerS(id, m_step, c == FwdTflops);
            item->setData(c, Qt::UserRole, rate.value_or(qQNaN()));
            item->setText(c, rate ? QString::number(*rate, 'g', 4) : QString());
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
        if (m_memory.recorded()) {
            const PairMemory &mem = m_memory.of(id, m_step);
            const std::pair<int, int64_t> bytes[] = {{FwdAlloc, mem.forwardAllocated},
                {Held, mem.held}, {BwdAlloc, mem.backwardAllocated}};
            for (const auto &[c, v] : bytes) {
                // Held bytes are unknown where frees cannot be matched (no `Addr`).
                const bool known = v != kNoValue;
                item->setData(c, Qt::UserRole, known ? double(v) : qQNaN());
                item->setText(c, known ? formatBytes(double(v)) : QString());
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            }
        }
    }
    m_tree->expandToDepth(2);
    m_tree->header()->resizeSections(QHeaderView::ResizeToContents);
    m_tree->setColumnWidth(Name, std::min(m_tree->columnWidth(Name) + 40, 380));
    if (m_selected < m_items.size())
        m_tree->setCurrentItem(m_items[m_selected]);
    applyFilter(m_filter->text());
}

void ModulesView::setStep(int stepIndex)
{
    m_step = stepIndex;
    m_icicle->setStep(stepIndex);
    fill();
}

void ModulesView::selectStep(int stepIndex)
{
    m_stepBox->setCurrentIndex(stepIndex + 1); // shows it through currentIndexChanged
}

void ModulesView::selectModule(ModuleId id)
{
    if (id == kNoModule && m_selected != kNoModule) {
        // An event was selected elsewhere: no module stays highlighted.
        m_selected = kNoModule;
        m_icicle->setSelected(kNoModule);
        const QSignalBlocker blocker(m_tree);
        m_tree->setCurrentItem(nullptr);
        m_tree->clearSelection();
        return;
    }
    if (id >= m_items.size())
        return;
    m_tree->setCurrentItem(m_items[id]); // emits moduleSelected through currentItemChanged
    m_tree->scrollToItem(m_items[id]);
}

void ModulesView::applyFilter(const QString &text)
{
    // A module shows when it or a descendant matches; ancestors stay to give the path.
    const auto &nodes = m_modules.nodes();
    std::vector<bool> visible(nodes.size(), text.isEmpty());
    if (!text.isEmpty()) {
        for (ModuleId id = ModuleId(nodes.size()); id-- > 0;) {
            const bool match
                = QString::fromStdString(nodes[id].path).contains(text, Qt::CaseInsensitive);
            if (match)
                visible[id] = true;
            if (visible[id] && nodes[id].parent != kNoModule)
                visible[nodes[id].parent] = true;
        }
    }
    for (ModuleId id = 0; id < nodes.size(); ++id)
        m_items[id]->setHidden(!visible[id]);
}

} // namespace ks
