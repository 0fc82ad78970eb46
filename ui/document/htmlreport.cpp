// SPDX-License-Identifier: MIT
#include "document/htmlreport.h"

#include "document/reportchartpainter.h"

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>

namespace ks {

namespace {

constexpr int kChartWidth = 900; // px: the page's width less its margins

const char *const kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 14px; color: #222;
       max-width: 960px; margin: 24px auto; padding: 0 16px; }
h1 { font-size: 24px; margin-bottom: 4px; }
.meta { color: #666; margin-top: 0; }
h2 { font-size: 19px; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 36px; }
figure { margin: 12px 0; }
figcaption, caption { color: #555; font-size: 13px; text-align: left; padding: 4px 0; }
.table { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 12px 0; font-size: 12px; width: 100%; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
img { max-width: 100%; }
p.caption { color: #555; font-size: 13px; margin-bottom: 0; }
p.empty { font-style: italic; color: #555; margin-top: 4px; }
/* Printed, a table is whole: no scroll box to cut it, text that wraps, the page's width. */
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 11px; }
  .table { overflow: visible; }
  table { width: 100%; font-size: 9px; }
  th, td { overflow-wrap: anywhere; }
  tr, figure { break-inside: avoid; }
}
)";

QString escaped(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

//! The chart as an <svg> element (QSvgGenerator's document without its XML prologue).
QByteArray chartSvg(const ReportChart &chart)
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    const double height = ReportChartPainter::height(chart, font);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(96);
    svg.setSize(QSize(kChartWidth, int(height)));
    svg.setViewBox(QRectF(0, 0, kChartWidth, height));
    svg.setTitle(QString::fromStdString(chart.caption));
    {
        QPainter p(&svg);
        ReportChartPainter::paint(p, QRectF(0, 0, kChartWidth, height), chart, font);
    }
    QByteArray out = buffer.data();
    const qsizetype start = out.indexOf("<svg");
    return start < 0 ? QByteArray() : out.mid(start);
}

QByteArray tableHtml(const ReportTable &t)
{
    if (t.table.rowCount() == 0)
        return QStringLiteral("<p class=\"caption\">%1</p>\n<p class=\"empty\">%2</p>\n")
            .arg(escaped(t.caption), escaped(t.whyEmpty))
            .toUtf8();
    // A wide table scrolls inside its box; the page keeps its width.
    QString html = QStringLiteral("<div class=\"table\"><table>\n<caption>%1</caption>\n<tr>")
                       .arg(escaped(t.caption));
    const auto columns = t.table.columns();
    for (const ColumnSpec &c : columns)
        html += QStringLiteral("<th data-column=\"%1\">%2</th>")
                    .arg(escaped(std::string(c.name)),
                        escaped(std::string(c.title.empty() ? c.name : c.title)));
    html += QStringLiteral("</tr>\n");
    for (size_t r = 0; r < t.table.rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (size_t c = 0; c < columns.size(); ++c)
            html += (isNumericCell(columns[c].cell) ? QStringLiteral("<td class=\"number\">")
                                                    : QStringLiteral("<td>"))
                + escaped(t.table.text(r, c)) + QStringLiteral("</td>");
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</table></div>\n");
    return html.toUtf8();
}

} // namespace

QByteArray htmlReport(const ReportContent &content, const QImage &timeline, const QString &date)
{
    QByteArray out;
    out += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
           "<meta charset=\"utf-8\"/>\n<title>";
    out += escaped(content.title).toUtf8();
    out += "</title>\n<style>";
    out += kStyle;
    out += "</style>\n</head>\n<body>\n<h1>";
    out += escaped(content.title).toUtf8();
    out += "</h1>\n<p class=\"meta\">";
    out += escaped(content.subtitle).toUtf8();
    out += "<br/>" + date.toHtmlEscaped().toUtf8() + " · Kinetoscope</p>\n";
    for (const ReportPart &part : content.parts) {
        out += "<section id=\"" + escaped(part.id).toUtf8() + "\">\n<h2>"
            + escaped(part.title).toUtf8() + "</h2>\n<p>" + escaped(part.text).toUtf8() + "</p>\n";
        for (const ReportChart &chart : part.charts) {
            out += "<figure>\n" + chartSvg(chart) + "\n<figcaption>"
                + escaped(chart.caption).toUtf8() + "</figcaption>\n</figure>\n";
        }
        if (part.timeline && !timeline.isNull()) {
            QBuffer png;
            png.open(QIODevice::WriteOnly);
            timeline.save(&png, "PNG");
            out += "<figure>\n<img alt=\"the timeline of the step\" src=\"data:image/png;base64,"
                + png.data().toBase64() + "\"/>\n<figcaption>"
                + escaped(content.timelineCaption).toUtf8() + "</figcaption>\n</figure>\n";
        }
        for (const ReportTable &table : part.tables)
            out += tableHtml(table);
        out += "</section>\n";
    }
    out += "</body>\n</html>\n";
    return out;
}

} // namespace ks
