// SPDX-License-Identifier: MIT
#include "document/pdftableplan.h"

#include "common/qstrings.h"

#include <QFontMetricsF>
#include <QStringList>

#include <algorithm>
#include <numeric>
#include <optional>

namespace ks {

namespace {

constexpr double kPad = 8; //!< left and right padding of a cell, together
constexpr double kLeastText = 90; //!< a wrapped text column is never narrower

//! The widest cell of \a column, and its header's longest word (headers wrap between words).
double naturalWidth(
    const CellTable &t, size_t column, const QFontMetricsF &body, const QFontMetricsF &head)
{
    double w = 0;
    for (const QString &word : toQString(t.columnTitle(column)).split(QLatin1Char(' ')))
        w = std::max(w, head.horizontalAdvance(word));
    for (size_t r = 0; r < t.rowCount(); ++r)
        w = std::max(w, body.horizontalAdvance(toQString(t.text(r, column))));
    return w + kPad;
}

/*!
 * Widths for \a columns within \a width: natural ones when they fit, else text columns share
 * what numbers leave, each at least kLeastText. False when even that does not fit.
 */
bool fit(const CellTable &t,
    const std::vector<size_t> &columns,
    const std::vector<double> &natural,
    double width,
    std::vector<double> &out)
{
    out.clear();
    double numbers = 0, text = 0, least = 0;
    for (size_t c : columns) {
        if (isNumericCell(t.columns()[c].cell)) {
            numbers += natural[c];
        } else {
            text += natural[c];
            least += std::min(natural[c], kLeastText);
        }
    }
    if (numbers + least > width)
        return false;
    // Text columns shrink in proportion to what they would take, never below their least.
    const double room = width - numbers;
    const double scale = text > room ? room / text : 1.0;
    for (size_t c : columns) {
        const bool number = isNumericCell(t.columns()[c].cell);
        out.push_back(
            number ? natural[c] : std::max(std::min(natural[c], kLeastText), natural[c] * scale));
    }
    // The least widths may overshoot what scaling left: take it back from the widest text.
    double over = std::accumulate(out.begin(), out.end(), 0.0) - width;
    while (over > 0.5) {
        std::optional<size_t> widest; // a text column: numbers keep their width
        for (size_t i = 0; i < columns.size(); ++i) {
            if (!isNumericCell(t.columns()[columns[i]].cell) && (!widest || out[i] > out[*widest]))
                widest = i;
        }
        if (!widest)
            return false;
        const double take = std::min(over, out[*widest] - kLeastText);
        if (take <= 0)
            return false;
        out[*widest] -= take;
        over -= take;
    }
    return true;
}

} // namespace

int pdfCellFlags(Cell cell)
{
    return isNumericCell(cell) ? int(Qt::AlignRight | Qt::AlignTop)
                               : int(Qt::AlignLeft | Qt::AlignTop | Qt::TextWrapAnywhere);
}

std::vector<PdfTableBand> planPdfTable(
    const CellTable &table, double width, const QFont &body, const QFont &head)
{
    const QFontMetricsF bodyMetrics(body), headMetrics(head);
    std::vector<double> natural(table.columnCount());
    for (size_t c = 0; c < natural.size(); ++c)
        natural[c] = naturalWidth(table, c, bodyMetrics, headMetrics);
    std::vector<PdfTableBand> bands;
    std::vector<size_t> all(table.columnCount());
    std::iota(all.begin(), all.end(), 0);
    PdfTableBand whole;
    if (fit(table, all, natural, width, whole.widths) || table.columnCount() < 2) {
        whole.columns = all;
        if (whole.widths.size() != all.size()) // one column wider than the page: it runs over
            whole.widths.assign(natural.begin(), natural.end());
        return {whole};
    }
    // Bands: the first column, then as many more as fit beside it.
    size_t next = 1;
    while (next < table.columnCount()) {
        PdfTableBand band;
        band.columns = {0};
        std::vector<double> widths;
        while (next < table.columnCount()) {
            band.columns.push_back(next);
            if (fit(table, band.columns, natural, width, widths)) {
                band.widths = widths;
                ++next;
            } else if (band.columns.size() > 2) {
                band.columns.pop_back();
                break;
            } else {
                // Beside the first, this column alone is wider than the page: it runs past the
                // margin rather than losing a digit.
                band.widths = {natural[0], natural[next]};
                ++next;
                break;
            }
        }
        bands.push_back(std::move(band));
    }
    return bands;
}

} // namespace ks
