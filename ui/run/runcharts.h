// SPDX-License-Identifier: MIT
#pragma once

#include "session/run.h"

#include <QSize>
#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace ks {

/*!
 * The run's two charts side by side: the GPU time breakdown of each rank (computation, exposed
 * communication, exposed memcpy, idle: stacked, they add up to the rank's GPU span), and the
 * forward and backward GPU time of the selected pair on each rank.
 */
class RunCharts : public QWidget {
    Q_OBJECT
public:
    explicit RunCharts(std::shared_ptr<const Run> run, QWidget *parent = nullptr);

    //! Shows pair \a pairIndex (RankPairs) in the second chart; -1: none selected.
    void setPair(int pairIndex);
    QChartView *breakdownView() const { return m_breakdown; }
    QChartView *pairView() const { return m_pair; }
    /*!
     * The same two charts drawn afresh offscreen at kExportSize, laid out and ready to save:
     * the picture does not depend on how the page is shown, or whether it is.
     */
    std::unique_ptr<RunCharts> exportCopy() const;

    static constexpr QSize kExportSize {1600, 700};

private:
    std::shared_ptr<const Run> m_run;
    int m_pairIndex = -1;
    QChartView *m_breakdown;
    QChartView *m_pair;
};

} // namespace ks
