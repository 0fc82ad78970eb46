// SPDX-License-Identifier: MIT
#include "document/reportchartpainter.h"

#include "common/palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ks {

namespace {

double barHeight(const QFont &font)
{
    return QFontMetricsF(font).height() + 4;
}

QString number(double v)
{
    return QString::number(v, 'f', v >= 100 ? 0 : 1);
}

} // namespace

double ReportChartPainter::height(const ReportChart &chart, const QFont &font)
{
    const double bar = barHeight(font);
    return bar * 1.5 + double(chart.labels.size()) * bar + 6;
}

void ReportChartPainter::paint(
    QPainter &p, const QRectF &rect, const ReportChart &chart, const QFont &font)
{
    p.save();
    p.setFont(font);
    const QFontMetricsF fm(font);
    const double bar = barHeight(font);
    // Legend.
    double x = rect.left();
    for (size_t s = 0; s < chart.series.size(); ++s) {
        p.fillRect(QRectF(x, rect.top() + 3, bar - 6, bar - 6), workColor(chart.parts[s]));
        const QString name = QString::fromStdString(chart.series[s]);
        p.setPen(Qt::black);
        p.drawText(QPointF(x + bar - 2, rect.top() + fm.ascent() + 2), name);
        x += bar + fm.horizontalAdvance(name) + 14;
    }
    // Bars: labels on the left (at most 40 % of the width), values after the bar.
    double labelWidth = 0;
    for (const std::string &l : chart.labels)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(QString::fromStdString(l)));
    labelWidth = std::min(labelWidth + 8, rect.width() * 0.4);
    double largest = 0;
    for (const auto &values : chart.values) {
        double sum = 0;
        for (double v : values)
            sum += v;
        largest = std::max(largest, sum);
    }
    const double valueWidth = fm.horizontalAdvance(number(largest) + QStringLiteral(" ")
                                  + QString::fromStdString(chart.unit))
        + 8;
    const double plot = std::max(10.0, rect.width() - labelWidth - valueWidth);
    const double scale = largest > 0 ? plot / largest : 0;
    double y = rect.top() + bar * 1.5;
    for (size_t i = 0; i < chart.labels.size(); ++i, y += bar) {
        const QString label = fm.elidedText(
            QString::fromStdString(chart.labels[i]), Qt::ElideMiddle, labelWidth - 8);
        p.setPen(Qt::black);
        p.drawText(
            QRectF(rect.left(), y, labelWidth - 8, bar), Qt::AlignRight | Qt::AlignVCenter, label);
        double left = rect.left() + labelWidth, sum = 0;
        for (size_t s = 0; s < chart.values[i].size(); ++s) {
            const double w = chart.values[i][s] * scale;
            if (w > 0)
                p.fillRect(QRectF(left, y + 2, w, bar - 4), workColor(chart.parts[s]));
            left += w;
            sum += chart.values[i][s];
        }
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRectF(left + 4, y, valueWidth, bar), Qt::AlignLeft | Qt::AlignVCenter,
            number(sum) + QStringLiteral(" ") + QString::fromStdString(chart.unit));
    }
    p.restore();
}

} // namespace ks
