// SPDX-License-Identifier: MIT
#include "document/pdfreport.h"

#include "common/qstrings.h"
#include "document/reportchartpainter.h"
#include "document/reporttimeline.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>

namespace ks {

namespace {

constexpr int kDpi = 96; // logical pixels, as on screen: fonts and the timeline resolve alike

QFont font(int pixels, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

//! Lays the report out top to bottom, starting a page where the next thing does not fit.
class PdfLayout {
public:
    PdfLayout(QPdfWriter &writer, QPainter &p)
        : m_writer(writer)
        , m_p(p)
        , m_page(writer.pageLayout().paintRectPixels(kDpi))
    {
        m_y = 0;
    }

    double width() const { return m_page.width(); }

    void newPage()
    {
        m_writer.newPage();
        m_y = 0;
    }
    //! Room for \a height more, else a new page (unless the page is still empty).
    void need(double height)
    {
        if (m_y > 0 && m_y + height > m_page.height())
            newPage();
    }
    void text(const QString &text, const QFont &f, const QColor &color, double gapAfter)
    {
        const QRectF bounds
            = QFontMetricsF(f).boundingRect(QRectF(0, 0, width(), 1e6), Qt::TextWordWrap, text);
        need(bounds.height());
        m_p.setFont(f);
        m_p.setPen(color);
        m_p.drawText(QRectF(0, m_y, width(), bounds.height()), Qt::TextWordWrap, text);
        m_y += bounds.height() + gapAfter;
    }
    void chart(const ReportChart &chart)
    {
        const QFont f = font(10);
        const double h = ReportChartPainter::height(chart, f);
        need(h + 20);
        ReportChartPainter::paint(m_p, QRectF(0, m_y, width(), h), chart, f);
        m_y += h + 2;
        text(QString::fromStdString(chart.caption), font(9), QColor(90, 90, 90), 10);
    }
    void picture(const ReportTimeline &timeline, const QString &caption)
    {
        const QSize size = timeline.size();
        const double scale = width() / size.width(); // drawn as on screen, then scaled to fit
        need(size.height() * scale + 20);
        m_p.save();
        m_p.translate(0, m_y);
        m_p.scale(scale, scale);
        m_p.setClipRect(QRect(QPoint(0, 0), size));
        timeline.paint(m_p);
        m_p.restore();
        m_y += size.height() * scale + 2;
        text(caption, font(9), QColor(90, 90, 90), 10);
    }
    void table(const ReportTable &t)
    {
        const QFont body = font(8), head = font(8, true);
        const QFontMetricsF fm(body);
        const auto columns = t.table.columns();
        // Widths by the longest text of each column (capped), scaled to the page.
        std::vector<double> w(columns.size());
        for (size_t c = 0; c < columns.size(); ++c) {
            w[c] = QFontMetricsF(head).horizontalAdvance(QString::fromUtf8(
                       columns[c].title.data(), qsizetype(columns[c].title.size())))
                + 8;
            for (size_t r = 0; r < t.table.rowCount(); ++r)
                w[c] = std::max(
                    w[c], fm.horizontalAdvance(QString::fromStdString(t.table.text(r, c))) + 8);
            w[c] = std::min(w[c], width() * 0.45);
        }
        double total = 0;
        for (double x : w)
            total += x;
        for (double &x : w)
            x *= width() / std::max(total, width());
        const double rowHeight = fm.height() + 4;
        text(QString::fromStdString(t.caption), font(9), QColor(90, 90, 90), 2);
        auto header = [&] {
            double x = 0;
            m_p.setFont(head);
            for (size_t c = 0; c < columns.size(); ++c) {
                m_p.fillRect(QRectF(x, m_y, w[c], rowHeight), QColor(240, 240, 240));
                m_p.setPen(Qt::black);
                m_p.drawText(QRectF(x + 3, m_y, w[c] - 6, rowHeight),
                    Qt::AlignVCenter | Qt::AlignLeft,
                    QFontMetricsF(head).elidedText(
                        toQString(columns[c].title), Qt::ElideRight, w[c] - 6));
                x += w[c];
            }
            m_y += rowHeight;
        };
        need(rowHeight * 2);
        header();
        m_p.setFont(body);
        for (size_t r = 0; r < t.table.rowCount(); ++r) {
            if (m_y + rowHeight > m_page.height()) {
                newPage();
                header();
                m_p.setFont(body);
            }
            double x = 0;
            for (size_t c = 0; c < columns.size(); ++c) {
                const bool number = isNumericCell(columns[c].cell);
                m_p.setPen(Qt::black);
                m_p.drawText(QRectF(x + 3, m_y, w[c] - 6, rowHeight),
                    Qt::AlignVCenter | (number ? Qt::AlignRight : Qt::AlignLeft),
                    fm.elidedText(
                        QString::fromStdString(t.table.text(r, c)), Qt::ElideRight, w[c] - 6));
                x += w[c];
            }
            m_p.setPen(QColor(220, 220, 220));
            m_p.drawLine(QPointF(0, m_y + rowHeight), QPointF(x, m_y + rowHeight));
            m_y += rowHeight;
        }
        m_y += 12;
    }

private:
    QPdfWriter &m_writer;
    QPainter &m_p;
    QRect
        m_page; //!< the paintable rectangle, logical pixels (the painter's origin at its top left)
    double m_y;
};

} // namespace

bool writePdfReport(const ReportContent &content,
    const ReportTimeline *timeline,
    const QString &date,
    QPageSize::PageSizeId pageSize,
    QIODevice *out)
{
    QPdfWriter writer(out);
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(pageSize), QPageLayout::Portrait,
        QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
    writer.setTitle(QString::fromStdString(content.title));
    writer.setCreator(QStringLiteral("Kinetoscope"));
    QPainter p;
    if (!p.begin(&writer))
        return false;
    PdfLayout layout(writer, p);
    layout.text(QString::fromStdString(content.title), font(20, true), Qt::black, 4);
    layout.text(QString::fromStdString(content.subtitle) + QStringLiteral("\n") + date
            + QStringLiteral(" · Kinetoscope"),
        font(10), QColor(100, 100, 100), 18);
    bool first = true;
    for (const ReportPart &part : content.parts) {
        if (!first)
            layout.newPage();
        first = false;
        layout.text(QString::fromStdString(part.title), font(16, true), Qt::black, 6);
        layout.text(QString::fromStdString(part.text), font(10), QColor(40, 40, 40), 10);
        for (const ReportChart &chart : part.charts)
            layout.chart(chart);
        if (part.timeline && timeline)
            layout.picture(*timeline, QString::fromStdString(content.timelineCaption));
        for (const ReportTable &table : part.tables)
            layout.table(table);
    }
    return p.end();
}

} // namespace ks
