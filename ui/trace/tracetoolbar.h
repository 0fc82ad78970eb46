// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;

namespace ks {

struct LoadedTrace;
class TimelineView;

/*!
 * The strip above a trace's timeline: the Step selector, find (a regular expression over names,
 * Enter / Shift+Enter step through matches), "All fwd→bwd arrows", and how the trace was linked.
 */
class TraceToolbar : public QWidget {
    Q_OBJECT
public:
    TraceToolbar(const LoadedTrace &trace, TimelineView *timeline, QWidget *parent = nullptr);

    //! Focuses the find field with its text selected.
    void startFind();

signals:
    //! A step was chosen: its index in the graph's steps, -1 for the whole trace.
    void stepChosen(int stepIndex);

private:
    QWidget *stepSelector(const LoadedTrace &trace);
    void addFind(QLayout *row);
    QWidget *linkSummary(const LoadedTrace &trace);

    TimelineView *m_timeline;
    QLineEdit *m_find = nullptr;
    QLabel *m_findStatus = nullptr;
};

} // namespace ks
