// SPDX-License-Identifier: MIT
#include "document/pdfreport.h"

#include "common/qstrings.h"
#include "document/pdftableplan.h"
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
        const QSize size = timeline.size;
        const double scale = width() / size.width(); // drawn as on screen, then scaled to fit
        need(size.height() * scale + 20);
        m_p.save();
        m_p.translate(0, m_y);
        m_p.scale(scale, scale);
        m_p.setClipRect(QRect(QPoint(0, 0), size));
        m_p.drawPicture(0, 0, timeline.picture);
        m_p.restore();
        m_y += size.height() * scale + 2;
        text(caption, font(9), QColor(90, 90, 90), 10);
    }
    //! A table that cuts no number or header: columns wrap, or split into bands (PdfTableBand).
    void table(const ReportTable &t)
    {
        if (t.table.rowCount() == 0) {
            text(QString::fromStdString(t.caption), font(9), QColor(90, 90, 90), 2);
            QFont why = font(9);
            why.setItalic(true);
            text(QString::fromStdString(t.whyEmpty), why, QColor(90, 90, 90), 10);
            return;
        }
        const QFont body = font(8), head = font(8, true);
        const std::vector<PdfTableBand> bands = planPdfTable(t.table, width(), body, head);
        for (size_t b = 0; b < bands.size(); ++b) {
            QString caption = QString::fromStdString(t.caption);
            if (bands.size() > 1)
                caption += QStringLiteral(" (part %1 of %2: the table is too wide for one page)")
                               .arg(b + 1)
                               .arg(bands.size());
            text(caption, font(9), QColor(90, 90, 90), 2);
            tableBand(t.table, bands[b], body, head);
        }
    }

    //! Starts a part: on a new page only when less than a quarter of this one is left.
    void part(const ReportPart &part)
    {
        need(m_page.height() / 4.0);
        text(QString::fromStdString(part.title), font(16, true), Qt::black, 6);
        text(QString::fromStdString(part.text), font(10), QColor(40, 40, 40), 10);
    }

private:
    //! The height \a row of \a t needs in \a band, each cell wrapped to its width.
    double rowHeight(const CellTable &t, size_t row, const PdfTableBand &band, const QFont &f) const
    {
        const QFontMetricsF fm(f);
        double h = fm.height();
        for (size_t i = 0; i < band.columns.size(); ++i) {
            const size_t c = band.columns[i];
            const QString cell = row == kHeader ? toQString(t.columnTitle(c))
                                                : QString::fromStdString(t.text(row, c));
            const int flags = row == kHeader ? int(Qt::AlignLeft | Qt::TextWordWrap)
                                             : pdfCellFlags(t.columns()[c].cell);
            h = std::max(
                h, fm.boundingRect(QRectF(0, 0, band.widths[i] - 6, 1e6), flags, cell).height());
        }
        return h + 4;
    }

    void drawRow(const CellTable &t, size_t row, const PdfTableBand &band, const QFont &f, double h)
    {
        m_p.setFont(f);
        double x = 0;
        for (size_t i = 0; i < band.columns.size(); ++i) {
            const size_t c = band.columns[i];
            const double w = band.widths[i];
            if (row == kHeader)
                m_p.fillRect(QRectF(x, m_y, w, h), QColor(240, 240, 240));
            m_p.setPen(Qt::black);
            const QString cell = row == kHeader ? toQString(t.columnTitle(c))
                                                : QString::fromStdString(t.text(row, c));
            const int flags = row == kHeader ? int(Qt::AlignLeft | Qt::TextWordWrap)
                                             : pdfCellFlags(t.columns()[c].cell);
            m_p.drawText(QRectF(x + 3, m_y + 2, w - 6, h - 2), flags, cell);
            x += w;
        }
        if (row != kHeader) {
            m_p.setPen(QColor(220, 220, 220));
            m_p.drawLine(QPointF(0, m_y + h), QPointF(x, m_y + h));
        }
        m_y += h;
    }

    void tableBand(
        const CellTable &t, const PdfTableBand &band, const QFont &body, const QFont &head)
    {
        const double headHeight = rowHeight(t, kHeader, band, head);
        // The caption, header and first row stay together.
        need(headHeight + (t.rowCount() > 0 ? rowHeight(t, 0, band, body) : 0.0));
        drawRow(t, kHeader, band, head, headHeight);
        for (size_t r = 0; r < t.rowCount(); ++r) {
            const double h = rowHeight(t, r, band, body);
            if (m_y + h > m_page.height()) {
                newPage();
                drawRow(t, kHeader, band, head, headHeight); // the header again on each page
            }
            drawRow(t, r, band, body, h);
        }
        m_y += 12;
    }

    static constexpr size_t kHeader = size_t(-1); //!< the row index of the header row

    QPdfWriter &m_writer;
    QPainter &m_p;
    QRect
        m_page; //!< the paintable rectangle, logical pixels (the painter's origin at its top left)
    double m_y;
};

} // namespace

bool writePdfReport(const ReportContent &content,
    const ReportTimeline &timeline,
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
    for (const ReportPart &part : content.parts) {
        layout.part(part);
        for (const ReportChart &chart : part.charts)
            layout.chart(chart);
        if (part.timeline && !timeline.isNull())
            layout.picture(timeline, QString::fromStdString(content.timelineCaption));
        for (const ReportTable &table : part.tables)
            layout.table(table);
    }
    return p.end();
}

} // namespace ks
