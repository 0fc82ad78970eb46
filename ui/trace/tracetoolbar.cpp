// SPDX-License-Identifier: MIT
#include "trace/tracetoolbar.h"

#include "common/elidedlabel.h"
#include "common/timeformat.h"
#include "session/loadedtrace.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QTimer>

namespace ks {

TraceToolbar::TraceToolbar(const LoadedTrace &trace, TimelineView *timeline, QWidget *parent)
    : QWidget(parent)
    , m_timeline(timeline)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 6, 2);
    row->addWidget(new QLabel(tr("Step:"), this));
    row->addWidget(stepSelector(trace));
    row->addSpacing(12);
    addFind(row);

    auto *arrows = new QCheckBox(tr("All fwd→bwd arrows"), this);
    arrows->setObjectName(QStringLiteral("allArrows"));
    arrows->setToolTip(tr("Draw every forward → backward arrow in view, not only the selection's"));
    connect(arrows, &QCheckBox::toggled, m_timeline, &TimelineView::setShowAllArrows);
    row->addWidget(arrows);
    row->addWidget(linkSummary(trace), 1);
}

QWidget *TraceToolbar::stepSelector(const LoadedTrace &trace)
{
    auto *steps = new QComboBox(this);
    steps->setObjectName(QStringLiteral("stepSelector"));
    steps->addItem(tr("Whole trace"));
    for (const ProfilerStep &s : trace.graph->steps())
        steps->addItem(
            tr("ProfilerStep#%1  (%2)").arg(s.number).arg(formatDuration(double(s.end - s.start))));
    steps->setToolTip(tr("Frames the step in the timeline and shows its pairs only in the pair "
                         "table (instances), the GPU events, Runtime API and Operators pages, "
                         "the top-pairs chart and the Modules tab; groups and the scatter sum "
                         "every step"));
    connect(steps, &QComboBox::activated, this, [this](int index) { emit stepChosen(index - 1); });
    return steps;
}

void TraceToolbar::addFind(QLayout *row)
{
    row->addWidget(new QLabel(tr("Find:"), this));
    m_find = new QLineEdit(this);
    m_find->setObjectName(QStringLiteral("findEdit"));
    m_find->setPlaceholderText(tr("regex over names, or args: stream=7 (Ctrl+F)"));
    m_find->setToolTip(tr("A regular expression over names; or conditions on args, joined by "
                          "\"and\": Input Dims~4096, External id=38, stream=7, grid>100 (keys: "
                          "Input Dims, External id, correlation, Sequence number, Fwd thread id, "
                          "device, stream, grid, block, Collective name, Process Group Name, "
                          "Seq, graph id, graph node id, cat; = equals, ~ contains, < and > "
                          "compare)"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(280);
    auto *findTimer = new QTimer(this);
    findTimer->setSingleShot(true);
    findTimer->setInterval(200);
    connect(m_find, &QLineEdit::textChanged, findTimer, qOverload<>(&QTimer::start));
    connect(
        findTimer, &QTimer::timeout, this, [this] { m_timeline->setFindPattern(m_find->text()); });
    connect(m_find, &QLineEdit::returnPressed, this, [this, findTimer] {
        if (findTimer->isActive()) {
            findTimer->stop();
            m_timeline->setFindPattern(m_find->text());
        }
        m_timeline->findNext(QApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
    // Escape clears the search and gives the keys back to the timeline.
    auto *leaveFind
        = new QShortcut(QKeySequence(Qt::Key_Escape), m_find, nullptr, nullptr, Qt::WidgetShortcut);
    connect(leaveFind, &QShortcut::activated, this, [this] {
        m_find->clear();
        m_timeline->setFindPattern(QString());
        m_timeline->setFocus();
    });
    row->addWidget(m_find);
    m_findStatus = new QLabel(this);
    m_findStatus->setMinimumWidth(120);
    connect(m_timeline, &TimelineView::findStatus, m_findStatus, &QLabel::setText);
    row->addWidget(m_findStatus);
}

QWidget *TraceToolbar::linkSummary(const LoadedTrace &trace)
{
    const LinkStats &s = trace.graph->stats();
    auto *stats
        = new ElidedLabel(tr("%1 pairs (%2 by flow, %3 by sequence), %4 unpaired backward · %5 "
                             "of %6 GPU events attributed")
                              .arg(s.pairs())
                              .arg(s.pairsFromFlows)
                              .arg(s.pairsFromSequence)
                              .arg(s.unpairedBackward)
                              .arg(s.gpuEventsAttributed)
                              .arg(s.gpuEvents),
            this);
    stats->setStyleSheet(QStringLiteral("color: palette(mid);"));
    stats->setObjectName(QStringLiteral("linkSummary"));
    stats->setMinimumWidth(120); // the pair count at least; the tooltip has the rest
    return stats;
}

void TraceToolbar::startFind()
{
    m_find->setFocus();
    m_find->selectAll();
}

} // namespace ks
