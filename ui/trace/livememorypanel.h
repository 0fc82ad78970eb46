// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/memory/livememory.h"
#include "session/loadedtrace.h"

#include <QWidget>

class QChartView;
class QLabel;
class QTableView;

namespace ks {

class SelectionController;
class TableModel;

/*!
 * The Memory tab's answer to "what is alive, and why": the peak's composition as a stacked bar
 * for the whole trace and each step (activation, gradient, optimizer, temporary, before the
 * window, other; a click on a bar shows its moment), and the table of every block alive at the
 * moment shown (LiveMemory::at(), largest first; a row selects its op). The timeline's memory
 * curves show their clicked moment here too (showAfter()).
 */
class LiveMemoryPanel : public QWidget {
    Q_OBJECT
public:
    LiveMemoryPanel(SelectionController *selection, QWidget *parent = nullptr);

    //! Shows the blocks alive just after `[memory]` event \a event, \a why saying what it is.
    void showAfter(int64_t event, const QString &why);
    int64_t shownEvent() const { return m_shownEvent; }
    //! Shows only the blocks whose device, category, op, module or pair contain \a text.
    void setFilter(const QString &text);
    QTableView *table() const { return m_table; }
    TableModel *model() const { return m_model; }
    QChartView *chart() const { return m_chart; }
    //! The line above the table: the moment, the device's total and its split.
    QString caption() const;

private:
    void buildChart();

    SelectionController *m_selection;
    const LoadedTrace &m_trace;
    QChartView *m_chart = nullptr;
    QLabel *m_caption = nullptr;
    QTableView *m_table = nullptr;
    TableModel *m_model = nullptr;
    int64_t m_shownEvent = -1;
    QString m_filter;
};

} // namespace ks
