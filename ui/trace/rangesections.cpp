// SPDX-License-Identifier: MIT
#include "trace/rangesections.h"

#include "base/unitstext.h"
#include "common/qstrings.h"
#include "export/rangetext.h"

#include <QApplication>
#include <QClipboard>
#include <QPushButton>
#include <QTreeWidget>

namespace ks {

namespace {

constexpr size_t kTop = 15;

QString timeAndShare(TimeNs time, TimeNs whole)
{
    return QStringLiteral("%1  (%2 %)")
        .arg(toQString(durationText(double(time))))
        .arg(whole > 0 ? 100.0 * double(time) / double(whole) : 0.0, 0, 'f', 1);
}

/*!
 * A row whose name may be long (a kernel's, a thread's): the figure goes first, where the field
 * names of an event go, so that a long name never pushes it out of view; the name's tooltip is
 * whole.
 */
void addFigure(QTreeWidgetItem *section, const QString &figure, const QString &name)
{
    auto *item = new QTreeWidgetItem(section, {figure, name});
    item->setToolTip(1, name);
}

void addNamedSection(
    QTreeWidget &tree, const QString &title, const std::vector<RangeStats::NamedTime> &list)
{
    QTreeWidgetItem *section = addSection(tree, title);
    for (size_t i = 0; i < std::min(kTop, list.size()); ++i)
        addFigure(section,
            QStringLiteral("%1  ×%2")
                .arg(toQString(durationText(double(list[i].time))))
                .arg(list[i].count),
            toQString(list[i].name));
    if (list.size() > kTop)
        new QTreeWidgetItem(
            section, {QStringLiteral("…"), QObject::tr("%1 more").arg(list.size() - kTop)});
}

} // namespace

void addRangeSections(QTreeWidget &tree, const TraceModel &model, const RangeStats &stats)
{
    const TimeNs length = stats.end - stats.begin;
    QTreeWidgetItem *range = addSection(tree, QObject::tr("Range"));
    new QTreeWidgetItem(range,
        {QObject::tr("from – to"),
            toQString(durationText(double(stats.begin - model.minTime))) + QStringLiteral(" – ")
                + toQString(durationText(double(stats.end - model.minTime)))});
    new QTreeWidgetItem(range, {QObject::tr("length"), toQString(durationText(double(length)))});
    auto *copyItem = new QTreeWidgetItem(range, {QObject::tr("statistics")});
    auto *copy = new QPushButton(QObject::tr("Copy as Text"));
    copy->setObjectName(QStringLiteral("copyRangeStats"));
    QObject::connect(
        copy, &QPushButton::clicked, copy, [text = toQString(rangeStatsText(model, stats, kTop))] {
            QApplication::clipboard()->setText(text);
        });
    tree.setItemWidget(copyItem, 1, copy);

    QTreeWidgetItem *lanes = addSection(tree, QObject::tr("Busy per lane"));
    for (const RangeStats::LaneBusy &b : stats.lanes)
        addFigure(lanes, timeAndShare(b.busy, length), toQString(laneName(model, b.lane)));
    if (stats.gpu) {
        QTreeWidgetItem *gpu = addSection(tree, QObject::tr("GPU time"));
        for (size_t c = 0; c < kStepCategories; ++c) {
            if (stats.gpuParts[c] > 0)
                new QTreeWidgetItem(gpu,
                    {toQString(workPartName(WorkPart(c))),
                        timeAndShare(stats.gpuParts[c], length)});
        }
        new QTreeWidgetItem(gpu, {QObject::tr("idle"), timeAndShare(stats.gpuIdle(), length)});
    }
    addNamedSection(tree, QObject::tr("Top kernels"), stats.kernels);
    addNamedSection(tree, QObject::tr("Top ops"), stats.ops);
}

QTreeWidgetItem *addSection(QTreeWidget &tree, const QString &title)
{
    auto *item = new QTreeWidgetItem(&tree, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

} // namespace ks
