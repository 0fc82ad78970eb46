// SPDX-License-Identifier: MIT
#pragma once

#include "common/selectioncontroller.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QSpinBox;

namespace ks {

class PairGroupTable;

/*!
 * The Charts tab: (1) the top-N op pairs (or groups) as stacked bars of forward and backward GPU
 * time — clicking a bar selects that pair everywhere; (2) per-ProfilerStep GPU time split into
 * forward, backward, backward-other, other and idle; (3) backward vs forward GPU time per group.
 */
class ChartsView : public QWidget {
    Q_OBJECT
public:
    enum Kind { TopPairs, Steps, Scatter };

    ChartsView(SelectionController *selection,
        std::shared_ptr<const PairGroupTable> groups,
        QWidget *parent = nullptr);

    void setKind(Kind kind);
    Kind kind() const { return m_kind; }
    void setTopCount(int n);
    void setGroupMode(bool groups);
    QChartView *chartView() const { return m_view; }
    //! Pair rows behind the bars of the top-N chart, bottom to top (tests).
    const std::vector<uint32_t> &barRows() const { return m_barRows; }

private:
    void rebuild();
    QChart *buildTopPairs();
    QChart *buildSteps();
    QChart *buildScatter();

    SelectionController *m_selection;
    std::shared_ptr<const PairGroupTable> m_groups;
    QChartView *m_view;
    QComboBox *m_kindBox;
    QComboBox *m_modeBox;
    QSpinBox *m_count;
    Kind m_kind = TopPairs;
    bool m_groupMode = false;
    std::vector<uint32_t> m_barRows;
};

} // namespace ks
