// SPDX-License-Identifier: MIT
#include "trace/detailspanel.h"

#include "common/elidedtipdelegate.h"
#include "common/qstrings.h"
#include "common/timeformat.h"
#include "export/pairtable.h"
#include "load/eventdetails.h"
#include "model/slicewalk.h"
#include "trace/efficiencysections.h"
#include "trace/rangesections.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ks {

namespace {
constexpr int SliceRole = Qt::UserRole + 1;
constexpr int kMaxGpuRows = 500;

} // namespace

DetailsPanel::DetailsPanel(QWidget *parent)
    : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setItemDelegate(new ElidedTipDelegate(this));
    // Clicking a linked event (a kernel, the launching op, the counterpart) selects it.
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QVariant v = item->data(0, SliceRole);
        if (v.isValid() && m_selection)
            m_selection->select(SliceId(v.toUInt()));
    });
    connect(this, &QTreeWidget::itemClicked, this,
        [this](QTreeWidgetItem *item) { emit itemActivated(item, 0); });
}

void DetailsPanel::setSelectionController(SelectionController *selection)
{
    disconnect(m_connection);
    disconnect(m_moduleConnection);
    disconnect(m_rangeConnection);
    m_selection = selection;
    if (selection) {
        m_connection = connect(
            selection, &SelectionController::selectionChanged, this, &DetailsPanel::showSlice);
        m_moduleConnection = connect(
            selection, &SelectionController::moduleChanged, this, &DetailsPanel::showModule);
        m_rangeConnection = connect(
            selection, &SelectionController::rangeSelected, this, &DetailsPanel::showRange);
    }
    showSlice(selection ? selection->current() : kNoSlice);
    if (selection && selection->currentModule() != kNoModule)
        showModule(selection->currentModule());
}

void DetailsPanel::showGraphReplay(SliceId s, const GpuInfo &info)
{
    // One cudaGraphLaunch/hipGraphLaunch replays every node of the graph: they share the launch.
    const OpGraph &g = *m_selection->trace().graph;
    QTreeWidgetItem *replay = section(tr("Graph replay"));
    new QTreeWidgetItem(replay,
        {tr("graph · node"),
            QStringLiteral("%1 · %2")
                .arg(info.graphId)
                .arg(info.graphNodeId == kNoValue ? QStringLiteral("?")
                                                  : QString::number(info.graphNodeId))});
    const SliceId launch = g.launchOf(s);
    if (launch == kNoSlice)
        return;
    const std::span<const SliceId> events = g.gpuEventsUnder(launch);
    new QTreeWidgetItem(replay,
        {tr("this replay"),
            tr("%1 GPU events, %2")
                .arg(events.size())
                .arg(formatDuration(double(g.gpuTotalsUnder(launch).time)))});
    int shown = 0;
    for (SliceId k : events) {
        if (++shown > kMaxGpuRows)
            break;
        const GpuInfo *node = m_selection->trace().model->gpu(k);
        addLink(replay,
            k == s ? tr("node %1 (this)").arg(node->graphNodeId)
                   : tr("node %1").arg(node->graphNodeId),
            k);
    }
}

QTreeWidgetItem *DetailsPanel::section(const QString &title)
{
    return addSection(*this, title);
}

QTreeWidgetItem *DetailsPanel::addLink(
    QTreeWidgetItem *parent, const QString &label, SliceId slice, const QString &value)
{
    const TraceModel &m = *m_selection->trace().model;
    QString text = value;
    if (text.isEmpty() && slice != kNoSlice)
        text = toQString(m.sliceName(slice)) + QStringLiteral("  (")
            + formatDuration(double(m.slices.dur[slice])) + QLatin1Char(')');
    auto *item = new QTreeWidgetItem(parent, {label, text});
    if (slice != kNoSlice) {
        item->setData(0, SliceRole, uint(slice));
        item->setForeground(1, palette().color(QPalette::Link));
        item->setToolTip(1, tr("Click to select"));
    }
    return item;
}

void DetailsPanel::showArgs(
    QTreeWidgetItem *section, const EventDetails &details, const std::string &error)
{
    if (!error.empty()) {
        new QTreeWidgetItem(section, {tr("unavailable"), QString::fromStdString(error)});
        return;
    }
    for (const auto &[key, value] : details.args) {
        auto *item = new QTreeWidgetItem(section, {toQString(key), toQString(value)});
        // Older traces write the Python stack as one arg, frames joined by ';': one per line.
        if (key == "Call stack") {
            for (const QString &frame :
                toQString(value).split(QLatin1Char(';'), Qt::SkipEmptyParts))
                new QTreeWidgetItem(item, {QString(), frame});
        }
        // A dict (a kernel's `occupancy` with its `limitingFactors`, 2026): one row a key.
        const QJsonDocument dict = QJsonDocument::fromJson(QByteArray::fromStdString(value));
        if (dict.isObject()) {
            const QJsonObject object = dict.object();
            for (auto it = object.begin(); it != object.end(); ++it)
                new QTreeWidgetItem(item,
                    {it.key(),
                        it->isString()
                            ? it->toString()
                            : QString::fromUtf8(
                                QJsonDocument(QJsonArray {*it}).toJson(QJsonDocument::Compact))
                                  .mid(1)
                                  .chopped(1)});
        }
    }
}

void DetailsPanel::showPythonStack(SliceId s)
{
    const TraceModel &m = *m_selection->trace().model;
    const std::vector<SliceId> frames = pythonStack(m, s);
    if (frames.empty())
        return;
    QTreeWidgetItem *stack = section(tr("Python stack (innermost first)"));
    for (size_t i = 0; i < frames.size(); ++i)
        addLink(stack, QString::number(i), frames[i]);
}

void DetailsPanel::showCheckpointing(SliceId s)
{
    const OpGraph &g = *m_selection->trace().graph;
    const TraceModel &m = g.model();
    auto at = [&](SliceId op) { return formatDuration(double(m.slices.start[op] - m.minTime)); };
    // Inside a recomputed op: what it repeats, clickable.
    if (const int rc = g.recomputationOf(s); rc >= 0) {
        const Recomputation &r = g.recomputations()[size_t(rc)];
        QTreeWidgetItem *item = section(tr("Checkpointing"));
        if (r.original != kNoSlice) {
            const QString ambiguous = r.candidates > 1
                ? tr(" — one of %1 candidates (same op, shapes and module in the step)")
                      .arg(r.candidates)
                : QString();
            addLink(item, tr("recompute of"), r.original,
                tr("%1 @ %2 (forward)%3")
                    .arg(toQString(m.sliceName(r.original)), at(r.original), ambiguous));
        } else {
            new QTreeWidgetItem(item,
                {tr("recompute of"), tr("no forward op with its name and shapes in the step")});
        }
        addLink(item, tr("re-run inside"), g.nodes()[r.hostNode].node);
        addLink(item, tr("recomputed op"), r.op,
            tr("%1 (%2 GPU events, %3)")
                .arg(toQString(m.sliceName(r.op)))
                .arg(r.gpu.count)
                .arg(formatDuration(double(r.gpu.time))));
        return;
    }
    // A forward op that was checkpointed: its re-runs.
    const std::vector<uint32_t> reruns = g.recomputationsRepeating(s);
    if (reruns.empty())
        return;
    QTreeWidgetItem *item = section(tr("Checkpointing"));
    for (uint32_t i : reruns) {
        const Recomputation &r = g.recomputations()[i];
        addLink(item, tr("recomputed"), r.op,
            tr("@ %1 inside %2 (%3 GPU)")
                .arg(at(r.op), toQString(m.sliceName(g.nodes()[r.hostNode].node)),
                    formatDuration(double(r.gpu.time))));
    }
}

void DetailsPanel::showModule(ModuleId id)
{
    if (id == kNoModule)
        return; // an event is shown, or nothing: showSlice() has drawn it
    m_argsRead.cancel();
    clear();
    const ModuleTree &tree = m_selection->trace().modules();
    const ModuleNode &node = tree.node(id);
    const ModuleTimes &t = node.times;
    QTreeWidgetItem *module = section(tr("Module"));
    new QTreeWidgetItem(module, {tr("name"), toQString(node.name)});
    if (!node.path.empty())
        new QTreeWidgetItem(module, {tr("path"), toQString(node.path)});
    new QTreeWidgetItem(module, {tr("calls"), QString::number(t.calls)});
    new QTreeWidgetItem(module, {tr("CPU time"), formatDuration(double(t.cpuTotal))});
    QTreeWidgetItem *gpu = section(tr("GPU time (with child modules)"));
    const auto add = [&](const QString &label, const GpuTotals &totals) {
        if (totals.count > 0)
            new QTreeWidgetItem(gpu,
                {label,
                    tr("%1  (%n event(s))", nullptr, int(totals.count))
                        .arg(formatDuration(double(totals.time)))});
    };
    add(tr("forward"), t.forwardTotal);
    add(tr("backward"), t.backwardTotal);
    add(tr("backward – other"), t.backwardOtherTotal);
    add(tr("recompute"), t.recomputeTotal);
    add(tr("other"), t.otherTotal);
    if (gpu->childCount() == 0)
        new QTreeWidgetItem(gpu, {tr("none")});
}

void DetailsPanel::showPair(const PairRow &row)
{
    const OpGraph &g = *m_selection->trace().graph;
    const SliceTable &t = g.model().slices;
    QTreeWidgetItem *pair = section(tr("Pair"));
    new QTreeWidgetItem(pair, {tr("link"), toQString(linkMethodName(row.link))});
    if (row.forward != kNoSlice)
        addLink(pair, tr("forward"), row.forward);
    else
        new QTreeWidgetItem(pair, {tr("forward"), tr("not in the trace")});
    for (uint32_t i : g.nodesOf(row)) {
        const BackwardNode &n = g.nodes()[i];
        addLink(pair, tr("backward (#%1)").arg(t.sequence[n.node]), n.node);
    }
    // Which events bwd_dur times: the wrappers where the trace has them, as the pair table.
    const auto nodes = g.nodesOf(row);
    const bool wrapped = std::any_of(nodes.begin(), nodes.end(),
        [&](uint32_t i) { return g.nodes()[i].outer != g.nodes()[i].node; });
    new QTreeWidgetItem(pair,
        {tr("backward dur"),
            tr("%1, summed over %2 (bwd_dur)")
                .arg(formatDuration(double(row.backwardDur)),
                    wrapped ? tr("its nodes' evaluate_function wrappers")
                            : tr("its node events"))});
    // A trace read in part with no GPU event left: its GPU times are unknown, not 0.
    const auto gpuText = [&](const GpuTotals &gpu) {
        return g.stats().gpuCutOff
            ? tr("unknown: no GPU event survived the cut")
            : tr("%1 events, %2").arg(gpu.count).arg(formatDuration(double(gpu.time)));
    };
    new QTreeWidgetItem(pair, {tr("forward GPU"), gpuText(row.forwardGpu)});
    new QTreeWidgetItem(pair, {tr("backward GPU"), gpuText(row.backwardGpu)});
    if (row.recomputeGpu.count > 0)
        new QTreeWidgetItem(pair,
            {tr("recompute GPU"),
                tr("%1 events, %2 (forward work re-run inside its backward nodes)")
                    .arg(row.recomputeGpu.count)
                    .arg(formatDuration(double(row.recomputeGpu.time)))});
    if (row.recompute)
        new QTreeWidgetItem(
            pair, {tr("recompute"), tr("forward re-run inside backward (checkpointing)")});
}

void DetailsPanel::showRange(TimeNs begin, TimeNs end)
{
    if (!m_selection)
        return;
    if (begin >= end) {
        showSlice(m_selection->current());
        return;
    }
    m_argsRead.cancel();
    clear();
    auto *working = new QTreeWidgetItem(this, {tr("Range"), tr("working out…")});
    working->setForeground(1, palette().color(QPalette::PlaceholderText));
    m_rangeStats.run(
        [trace = m_selection->tracePointer(), begin, end](
            const std::atomic<bool> &) { return rangeStats(*trace->graph, begin, end); },
        [this](const RangeStats &stats) {
            if (!m_selection)
                return;
            clear();
            addRangeSections(*this, *m_selection->trace().model, stats);
        });
}

void DetailsPanel::showSlice(SliceId s)
{
    m_argsRead.cancel();
    m_rangeStats.cancel();
    clear();
    if (!m_selection || s == kNoSlice)
        return;
    const LoadedTrace &trace = m_selection->trace();
    const TraceModel &m = *trace.model;
    const OpGraph &g = *trace.graph;
    const SliceTable &t = m.slices;

    QTreeWidgetItem *event = section(tr("Event"));
    new QTreeWidgetItem(event, {tr("name"), toQString(m.sliceName(s))});
    new QTreeWidgetItem(event, {tr("category"), toQString(m.str(t.category[s]))});
    new QTreeWidgetItem(event,
        {tr("thread"),
            toQString(m.laneLabel(t.lane[s])) + QStringLiteral("  (pid ")
                + toQString(m.str(m.lanes[t.lane[s]].pidText)) + QLatin1Char(')')});
    const double fromFirst = double(t.start[s] - m.minTime);
    const QString written = tr("ts %1").arg(QString::fromStdString(writtenTs(m, s)));
    // A rank of a run: the run's clock, as its timeline's ruler reads, then the file's own.
    const std::optional<double> run = m_selection->runClock();
    new QTreeWidgetItem(event,
        {tr("start"),
            run ? tr("%1 on the run's clock  (%2 in the file, %3)")
                      .arg(formatDuration(fromFirst + *run), formatDuration(fromFirst), written)
                : tr("%1  (%2)").arg(formatDuration(fromFirst), written)});
    new QTreeWidgetItem(event, {tr("duration"), formatDuration(double(t.dur[s]))});
    if (const int64_t step = g.stepAt(t.start[s]); step != kNoValue)
        new QTreeWidgetItem(event, {tr("step"), QString::number(step)});
    if (const SliceId module = g.moduleOf(s); module != kNoSlice)
        addLink(event, tr("module"), module);

    // Every arg, read back from the file on a worker; the section fills in when it is read.
    QTreeWidgetItem *args = section(tr("Args"));
    auto *reading = new QTreeWidgetItem(args, {tr("reading…")});
    reading->setForeground(0, palette().color(QPalette::PlaceholderText));
    m_argsRead.run(
        [trace = m_selection->tracePointer(), offset = t.offset[s]](const std::atomic<bool> &) {
            ArgsRead r;
            r.ok = readEventDetails(*trace->model, offset, r.details, r.error);
            return r;
        },
        [this, args](const ArgsRead &r) {
            if (indexOfTopLevelItem(args) < 0)
                return; // the panel was cleared meanwhile
            delete args->takeChild(0);
            showArgs(args, r.details, r.ok || !r.details.fields.empty() ? std::string() : r.error);
        });

    if (const int r = g.rowOf(s); r >= 0)
        showPair(g.rows()[size_t(r)]);
    addEfficiencySections(*this, g, trace.efficiency(), s);
    showCheckpointing(s);

    if (isGpuWork(t.kind[s])) {
        QTreeWidgetItem *launch = section(tr("Launch"));
        const SliceId l = g.launchOf(s);
        if (l != kNoSlice)
            addLink(launch, tr("runtime call"), l);
        else
            new QTreeWidgetItem(launch, {tr("runtime call"), tr("not found")});
        const SliceId op = g.launchingOp(s);
        const OpGraph::RanUnder ranUnder = g.ranUnder(s);
        const GpuInfo *info = m.gpu(s);
        if (op != kNoSlice)
            addLink(launch, tr("launching op"), op);
        else if (!ranUnder.annotation.empty()) // torch.cuda.graph_annotations
            new QTreeWidgetItem(launch, {tr("annotation"), toQString(ranUnder.annotation)});
        else if (ranUnder.slice != kNoSlice)
            addLink(launch, tr("ran under"), ranUnder.slice); // no op launched it: a graph replay
        new QTreeWidgetItem(launch, {tr("side"), toQString(gpuSideName(gpuSideOf(g, s)))});
        if (info) {
            new QTreeWidgetItem(launch,
                {tr("device · stream"),
                    QStringLiteral("%1 · %2").arg(info->device).arg(info->stream)});
            if (info->graphId != kNoValue)
                showGraphReplay(s, *info);
        }
    } else {
        const std::span<const SliceId> kernels = g.gpuEventsUnder(s);
        if (!kernels.empty()) {
            const GpuTotals totals = g.gpuTotalsUnder(s);
            QTreeWidgetItem *gpu = section(tr("GPU events (%1, %2)")
                                               .arg(kernels.size())
                                               .arg(formatDuration(double(totals.time))));
            int shown = 0;
            for (SliceId k : kernels) {
                if (++shown > kMaxGpuRows) {
                    new QTreeWidgetItem(
                        gpu, {tr("…"), tr("%1 more").arg(kernels.size() - kMaxGpuRows)});
                    break;
                }
                // Forward work re-run inside a backward node is marked: it is not the node's own.
                const bool recompute = gpuSideOf(g, k) == GpuSide::Recompute;
                addLink(gpu,
                    toQString(kindName(t.kind[k])) + (recompute ? tr(" · recompute") : QString()),
                    k);
            }
        }
    }
    showPythonStack(s);
}

} // namespace ks
