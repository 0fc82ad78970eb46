// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pairs/toppairs.h"
#include "common/selectioncontroller.h"
#include "link/linktypes.h"
#include "trace/rooflinechart.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QScatterSeries;
class QComboBox;
class QScrollArea;
class QSpinBox;

namespace ks {

class PairGroupTable;

//! Why a trace has no op pairs, in the charts' and the pair table's words.
struct NoPairsReason {
    QString headline; //!< "No op pairs: pairing was not possible"
    QString text; //!< the cause, in a sentence or two
};
//! The reason for \a stats' trace: no sequence numbers, else no backward pass autograd recorded.
NoPairsReason noPairsReason(const LinkStats &stats);

/*!
 * The Charts tab: (1) the top-N op pairs (or groups) as stacked bars of forward and backward GPU
 * time — clicking a bar selects that pair everywhere; (2) per-ProfilerStep GPU time split into
 * forward, backward, backward-other, other and idle; (3) backward vs forward GPU time per group —
 * clicking a point selects the group's first pair; (4) the roofline (rooflinechart.h) — clicking a
 * point selects its group's first op. A chart with nothing to show says why instead.
 */
class ChartsView : public QWidget {
    Q_OBJECT
public:
    //! In the order of kChartNames' kinds (chartnames.h).
    enum Kind { TopPairs, Steps, Scatter, Roofline };
    //! Height of one bar's row in the top-N chart: enough for a readable label.
    static constexpr int kCategoryHeight = 26;
    //! The size a chart is exported at (as headless --view chart), unless it needs more.
    static constexpr QSize kExportSize {1600, 900};

    //! \a efficiency (the trace's, which outlives the view) feeds the roofline chart.
    ChartsView(SelectionController *selection,
        std::shared_ptr<const PairGroupTable> groups,
        const OpEfficiency &efficiency,
        QWidget *parent = nullptr);

    void setKind(Kind kind);
    Kind kind() const { return m_kind; }
    void setTopCount(int n);
    void setGroupMode(bool groups);
    //! Keeps the top-pairs chart of instances to ProfilerStep#\a number (kNoValue: all steps).
    void setStepNumber(int64_t number);
    QChartView *chartView() const { return m_view; }
    //! The scroll area around the chart: it scrolls when the chart needs more than the page.
    QScrollArea *scrollArea() const { return m_scroll; }
    //! The pair row behind each bar of the top-N chart (bottom to top) or each point of the
    //! scatter (its group's first pair); empty for the per-step chart (tests).
    const std::vector<uint32_t> &rows() const { return m_rows; }
    //! The roofline chart's op groups, one per point (tests).
    const std::vector<EfficiencyGroup> &rooflineGroups() const { return m_rooflineGroups; }
    //! Why the chart is empty (the text drawn in it); empty when it shows data.
    QString emptyMessage() const { return m_message; }
    //! The size the current chart is exported at: kExportSize, taller for many bars.
    QSize exportSize() const;
    //! A new, offscreen view of the same chart laid out at exportSize(): exports do not depend
    //! on the page's size or on which tab is showing.
    std::unique_ptr<QChartView> exportView() const;

private:
    //! A chart and what the view needs to know about it.
    struct Built {
        QChart *chart = nullptr;
        std::vector<uint32_t> rows; //!< pair row per bar or point
        QStringList names; //!< the full name behind each bar (tooltips)
        double unitNs = 1; //!< nanoseconds per unit of the values
        QString message; //!< set when there is nothing to draw
        QSize minimum; //!< the least size at which labels and titles stay readable
        RooflinePlot roofline; //!< the roofline's groups and points (its chart is `chart`)
    };
    //! One bar of the top-N chart.
    struct Bar {
        uint32_t row; //!< the pair row it selects (a group's first)
        PairCost cost;
        QString name, label; //!< the full name (tooltips) and the axis label, unique
    };
    static Built message(const QString &headline, const QString &text);
    //! The top-N chart's bars, dearest first; \a candidates: the pairs or groups ranked.
    std::vector<Bar> topBars(size_t &candidates) const;
    QString topTitle(size_t top, bool anyRecomputed) const;
    Built build() const;
    Built buildTopPairs() const;
    Built buildSteps() const;
    Built buildScatter() const;
    Built buildRoofline() const;
    //! Why there are no pairs to chart (no sequence numbers, no backward pass, no GPU time).
    Built emptyPairs(bool anyPairs) const;
    void rebuild();
    void connectBars(const Built &b);
    void connectScatter(const Built &b);
    void connectRoofline();
    void selectRow(uint32_t row);

    SelectionController *m_selection;
    std::shared_ptr<const PairGroupTable> m_groups;
    const OpEfficiency &m_efficiency;
    std::vector<EfficiencyGroup> m_rooflineGroups;
    std::vector<std::pair<QScatterSeries *, std::vector<size_t>>> m_rooflinePoints;
    QScrollArea *m_scroll;
    QChartView *m_view;
    QComboBox *m_kindBox;
    QComboBox *m_modeBox;
    QSpinBox *m_count;
    Kind m_kind = TopPairs;
    bool m_groupMode = false;
    int64_t m_step = kNoValue;
    std::vector<uint32_t> m_rows;
    QString m_message;
    QSize m_minimum;
};

} // namespace ks
