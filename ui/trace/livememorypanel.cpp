// SPDX-License-Identifier: MIT
#include "trace/livememorypanel.h"

#include "common/barhover.h"
#include "common/chartaxis.h"
#include "common/palette.h"
#include "common/selectioncontroller.h"
#include "common/timeformat.h"
#include "export/livetable.h"
#include "table/tablemodel.h"
#include "table/tableview.h"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedBarSeries>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

namespace ks {

namespace {
//! The binary unit that suits \a bytes, as (divisor, name).
std::pair<double, QString> unitFor(double bytes)
{
    const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double divisor = 1;
    size_t u = 0;
    while (bytes >= divisor * 1024 && u + 1 < std::size(names)) {
        divisor *= 1024;
        ++u;
    }
    return {divisor, QString::fromLatin1(names[u])};
}

QString categoryTitle(LiveCategory c)
{
    QString name
        = QString::fromLatin1(liveCategoryName(c)).replace(QLatin1Char('_'), QLatin1Char(' '));
    name[0] = name[0].toUpper();
    return name;
}
} // namespace

LiveMemoryPanel::LiveMemoryPanel(SelectionController *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_trace(selection->trace())
    , m_chart(new QChartView(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_chart->setObjectName(QStringLiteral("memoryPeakChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    // Room for the bars even in a window's short bottom pane: the legend goes to the side.
    m_chart->setMinimumSize(360, 200);
    layout->addWidget(m_chart, 2);
    auto *right = new QVBoxLayout;
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("liveCaption"));
    m_caption->setWordWrap(true);
    right->addWidget(m_caption);
    m_table = makeTableView(this, QStringLiteral("liveTable"));
    right->addWidget(m_table, 1);
    layout->addLayout(right, 3);
    buildChart();
    const std::vector<PeakComposition> &peaks = m_trace.memoryPeaks();
    if (!peaks.empty() && peaks.front().event >= 0)
        showAfter(peaks.front().event, tr("the peak"));
    else if (!m_trace.liveMemory().known())
        m_caption->setText(tr("The [memory] events of this trace carry no address: no free can "
                              "be matched to its allocation, so what is alive is not known."));
    else
        m_caption->setText(tr("Click a memory curve of the timeline to see what is alive then."));
}

void LiveMemoryPanel::buildChart()
{
    const std::vector<PeakComposition> &peaks = m_trace.memoryPeaks();
    auto *series = new QStackedBarSeries;
    std::vector<QBarSet *> sets;
    for (size_t c = 0; c < size_t(LiveCategory::Count); ++c) {
        auto *set = new QBarSet(categoryTitle(LiveCategory(c)));
        set->setColor(memoryColor(LiveCategory(c)));
        sets.push_back(set);
        series->append(set);
    }
    double most = 0;
    for (const PeakComposition &p : peaks) {
        double total = 0;
        for (int64_t bytes : p.bytes)
            total += double(bytes);
        most = std::max(most, total);
    }
    const auto [divisor, unit] = unitFor(most);
    QStringList labels;
    for (const PeakComposition &p : peaks) {
        labels << (p.step == kNoValue ? tr("peak") : tr("#%1").arg(p.step)); // step N, short
        for (size_t c = 0; c < sets.size(); ++c)
            *sets[c] << double(p.bytes[c]) / divisor;
    }
    QStringList hovered; // the category axis's short labels, spelled out
    for (const PeakComposition &p : peaks)
        hovered << (p.step == kNoValue ? tr("the peak") : tr("the peak of step %1").arg(p.step));
    showBarToolTips(series, hovered,
        [divisor = divisor](double value) { return formatBytes(value * divisor); });
    for (QBarSet *set : sets) {
        connect(set, &QBarSet::clicked, this, [this](int index) {
            const PeakComposition &p = m_trace.memoryPeaks()[size_t(index)];
            if (p.event >= 0)
                showAfter(p.event,
                    p.step == kNoValue ? tr("the peak") : tr("the peak of step %1").arg(p.step));
        });
    }
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(labels);
    // "peak", "#2": short, but a narrow pane elided them to "…" or dropped them.
    x->setTruncateLabels(false);
    QFont labelFont = x->labelsFont();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    x->setLabelsFont(labelFont);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setTitleText(tr("allocated (%1)").arg(unit));
    setRoundTicks(y, most / divisor);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    const auto device = m_trace.liveMemory().peakDevice();
    chart->setTitle(!m_trace.liveMemory().known()
            ? tr("No addresses in this trace (PyTorch 1.9): what is alive cannot be told")
            : device
            ? tr("What fills %1 at its peak (click a bar)")
                  .arg(QString::fromStdString(memoryDeviceName(device->first, device->second)))
            : tr("No Total Allocated recorded: no peak"));
    for (QLegendMarker *marker : chart->legend()->markers(series)) { // categories never there
        const auto *set = static_cast<QBarLegendMarker *>(marker)->barset();
        bool any = false;
        for (int i = 0; i < set->count(); ++i)
            any = any || set->at(i) != 0;
        marker->setVisible(any);
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(2, 2, 2, 2));
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 0.9);
    chart->setTitleFont(titleFont);
    m_chart->setChart(chart);
}

void LiveMemoryPanel::showAfter(int64_t event, const QString &why)
{
    const LiveMemory &live = m_trace.liveMemory();
    if (!live.known())
        return; // the caption says why nothing can be shown
    m_shownEvent = event;
    const TimeNs t = m_trace.model->memory.time[size_t(event)];
    auto table = std::make_shared<LiveTable>(live, live.afterEvent(event));
    TableModel *old = m_model;
    m_model = new TableModel(table,
        {LiveTable::Device, LiveTable::Category, LiveTable::AllocOp, LiveTable::Module,
            LiveTable::PairFwdName},
        this);
    m_model->setTimeOrigin(m_trace.model->minTime);
    if (!m_filter.isEmpty())
        m_model->setFilter(m_filter, false);
    QItemSelectionModel *oldSelection = m_table->selectionModel();
    m_table->setModel(m_model);
    delete oldSelection; // a view keeps the selection model it replaces
    delete old;
    m_table->resizeColumnsToContents();
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, table](const QModelIndex &current) {
            if (!current.isValid())
                return;
            const int64_t a
                = table->block(current.data(TableModel::SourceRowRole).toUInt()).allocation;
            const SliceId op = a < 0 ? kNoSlice : m_trace.memory().allocations()[size_t(a)].op;
            if (op != kNoSlice)
                m_selection->select(op);
        });
    QString text
        = tr("Alive at %1 (%2)").arg(formatDuration(double(t - m_trace.model->minTime)), why);
    if (const auto device = live.peakDevice()) {
        const CategoryBytes bytes = live.composition(table->blocks(), *device);
        int64_t total = 0;
        QStringList parts;
        for (size_t c = 0; c < bytes.size(); ++c) {
            total += bytes[c];
            if (bytes[c] != 0)
                parts << tr("%1 %2").arg(
                    categoryTitle(LiveCategory(c)).toLower(), formatBytes(double(bytes[c])));
        }
        text += tr(" on %1: %2 — %3")
                    .arg(QString::fromStdString(memoryDeviceName(device->first, device->second)),
                        formatBytes(double(total)), parts.join(QStringLiteral(" · ")));
    }
    text += tr(" · %n block(s) on every device", nullptr, int(table->rowCount()));
    m_caption->setText(text);
}

void LiveMemoryPanel::setFilter(const QString &text)
{
    m_filter = text;
    if (m_model)
        m_model->setFilter(text, false);
}

QString LiveMemoryPanel::caption() const
{
    return m_caption->text();
}

} // namespace ks
