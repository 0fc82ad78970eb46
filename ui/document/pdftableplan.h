// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportcontent.h"

#include <QFont>

#include <vector>

namespace ks {

//! Some columns of a report table and their widths: one band of it across the page.
struct PdfTableBand {
    std::vector<size_t> columns;
    std::vector<double> widths; //!< logical pixels, one per column
};

/*!
 * How a report table fits a page \a width wide without cutting a number or a header: each column
 * as wide as its widest cell and its header's longest word. When they do not all fit, text
 * columns wrap (down to a readable least width); when even that is too wide, the columns are
 * split into bands, each repeating the first column (the row's name), read one under the other.
 */
std::vector<PdfTableBand> planPdfTable(
    const CellTable &table, double width, const QFont &body, const QFont &head);

//! The flags a cell of column \a cell is drawn with: numbers right-aligned on one line, text
//! left-aligned and wrapped (anywhere, for long names without spaces).
int pdfCellFlags(Cell cell);

} // namespace ks
